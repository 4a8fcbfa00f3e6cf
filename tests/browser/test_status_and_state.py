"""The runtime status line, and what the page keeps for the learner: attempts, scroll, the phone tab, an
interrupted run; Save-Data on the index."""

import re

import pytest

from conftest import PYTHON_READY_MS, wait_until_ready
from page_helpers import (INFINITE_LOOP, SOLUTION, grade_in_page, run_and_wait, set_code, set_time_limit, show_pane,
                          start_runaway_run, wait_for_editor, wait_for_results)

# After gradeSubmission resolves: [the status line, whether an interpreter is booting]. The runner starts
# the next spare as the run ends, before the verdict reaches the page.
GRADE_THEN_STATUS = """async (source) => {
    await window.gradeSubmission(source);
    return [document.getElementById("runtime-status").textContent, window.runner.fresh.some((w) => w.isBooting)];
}"""


def test_ready_after_a_verdict_and_after_stop_while_the_spare_boots(open_exercise, page):
    open_exercise()
    assert page.evaluate(GRADE_THEN_STATUS, SOLUTION) == ["Ready", True]
    set_time_limit(page, 120)
    start_runaway_run(page)
    page.click("#stop-button")
    wait_for_results(page)
    assert page.locator("#runtime-status").inner_text() == "Ready"
    # The next run simply waits for the interpreter it gets, whatever it is doing.
    assert page.evaluate(GRADE_THEN_STATUS, SOLUTION) == ["Ready", True]


@pytest.mark.cold_start
def test_first_visit_shows_the_download_in_bytes(context, base_url):
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")  # about 9 MB sent (17 MB once decoded) at 16 Mbit/s: several seconds to watch
    cdp.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": 5, "downloadThroughput": 16e6 / 8, "uploadThroughput": 16e6 / 8})
    page.goto(f"{base_url}/exercises/sinusoidal_pe/")
    progress = page.locator("#python-download")
    progress.wait_for(state="visible", timeout=PYTHON_READY_MS)
    assert page.locator("#runtime-status").inner_text() == "Loading Python…"
    bar = progress.get_by_role("progressbar")
    # Named by the status line, which goes on to "Loading the grader…" while the last files arrive.
    assert bar.get_attribute("aria-labelledby") == "runtime-status"
    first = float(bar.evaluate("bar => bar.value"))
    total = float(bar.evaluate("bar => bar.max"))
    assert 0 <= first < total
    shown = re.fullmatch(r"(\d+\.\d) of (\d+\.\d) MB", progress.locator(".python-download-bytes").inner_text())
    assert shown and float(shown[2]) == round(total / 1e6, 1), progress.inner_text()
    page.wait_for_function("value => document.querySelector('#python-download progress').value > value", arg=first)
    wait_until_ready(page)
    assert progress.is_hidden()


def test_stopped_and_timed_out_runs_are_not_attempts(open_exercise, page):
    open_exercise()
    set_time_limit(page, 1)
    assert grade_in_page(page, INFINITE_LOOP)["tests"][0]["status"] == "timeout"
    set_time_limit(page, 120)
    start_runaway_run(page)
    page.click("#stop-button")
    wait_for_results(page)
    set_code(page, "def sinusoidal_pe(T, C):\n    return None\n")
    run_and_wait(page)
    set_code(page, SOLUTION)
    run_and_wait(page)
    assert page.locator(".success-attempts").inner_text() == "Solved after 2 runs, no hints."


def test_a_run_cut_by_a_reload_says_so_once(open_exercise, page):
    open_exercise()
    set_time_limit(page, 120)
    start_runaway_run(page)
    page.reload()
    wait_for_editor(page)
    page.wait_for_function("document.getElementById('results').textContent.includes('interrupted')")
    assert page.locator("#results .run-error").inner_text() == "Your last run was interrupted by a reload; run again."
    page.reload()
    wait_for_editor(page)
    assert "interrupted" not in page.locator("#results").inner_text()


def test_scroll_comes_back_on_back_and_on_reload(page, base_url):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base_url}/index.html")
    link = page.locator("a.exercise-link").nth(12)
    link.scroll_into_view_if_needed()
    index_y = page.evaluate("scrollY")
    assert index_y > 500
    link.click()
    page.wait_for_function("document.body.dataset.exerciseId !== undefined")
    wait_for_editor(page)
    page.mouse.wheel(0, 700)
    page.wait_for_function("scrollY >= 700")
    exercise_y = page.evaluate("scrollY")
    page.go_back()
    page.wait_for_function("document.body.dataset.exerciseId === undefined")
    page.wait_for_function("y => scrollY === y", arg=index_y)
    page.go_forward()
    wait_for_editor(page)
    page.wait_for_function("y => scrollY === y", arg=exercise_y)
    page.reload()
    wait_for_editor(page)
    page.wait_for_function("y => scrollY === y", arg=exercise_y)


def settled_scroll_top(page, element_id):
    """The element's scrollTop once a wheel's scrolling has ended (two readings 200 ms apart agree)."""
    top = None
    while True:
        now = page.evaluate("id => document.getElementById(id).scrollTop", element_id)
        if now == top:
            return top
        top = now
        page.wait_for_timeout(200)


def test_the_statement_pane_keeps_its_scroll_on_reload(page, base_url):
    """On a wide screen the statement scrolls in a pane of its own: a reload brings the pane back where it was."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{base_url}/exercises/causal_attention/")
    wait_for_editor(page)
    page.locator("#problem-pane").hover()
    page.mouse.wheel(0, 900)
    page.wait_for_function("document.getElementById('problem-pane').scrollTop >= 600")
    pane_top = settled_scroll_top(page, "problem-pane")
    page.reload()
    wait_for_editor(page)
    page.wait_for_function("top => document.getElementById('problem-pane').scrollTop === top", arg=pane_top)
    assert page.evaluate("scrollY") == 0


def test_the_phone_tab_is_remembered_per_exercise(open_exercise, page, base_url):
    page.set_viewport_size({"width": 390, "height": 844})
    open_exercise()
    show_pane(page, "code")
    page.reload()
    wait_for_editor(page)
    assert page.locator("#pane-tab-code").get_attribute("aria-selected") == "true"
    assert page.locator("#code-pane").is_visible() and page.locator("#problem-pane").is_hidden()
    page.goto(f"{base_url}/exercises/relative_shift/")
    assert page.locator("#pane-tab-problem").get_attribute("aria-selected") == "true", "another exercise: Problem"


def test_save_data_keeps_the_index_from_downloading_python(page, base_url):
    page.add_init_script("Object.defineProperty(navigator, 'connection', {value: {saveData: true}})")
    python_requests = []
    page.on("request", lambda request: "/pyodide/" in request.url and python_requests.append(request.url))
    page.goto(f"{base_url}/index.html")
    page.wait_for_load_state("networkidle")
    assert python_requests == [] and page.evaluate("window.runner") is None
    page.click("a.exercise-link >> nth=0")  # an exercise needs Python: it loads it
    wait_until_ready(page)
    assert python_requests

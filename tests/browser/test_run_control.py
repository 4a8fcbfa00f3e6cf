"""Ending runs: the Stop button, the time limits, and the spare interpreter that takes over at once.

Each case runs on a plain page and on a cross-origin isolated one. Only the isolated page can interrupt
Python (a KeyboardInterrupt through Pyodide's interrupt buffer), so only its reports say where the
code was; the plain page terminates the worker at once.
"""

import json
import os
import time
from pathlib import Path

import pytest

from conftest import PYTHON_READY_MS, wait_until_ready
from page_helpers import (INFINITE_LOOP, SOLUTION, TEST_NAMES, grade_in_page, grade_with_cli, run_and_wait, set_code,
                          set_time_limit, show_pane, shown_results, start_runaway_run, verdict, wait_for_results)

STOPPED = "Stopped: you pressed Stop before the tests finished."
STUCK_IN_LOOP = "Stopped at line 2 of your code (in sinusoidal_pe): while True:"


@pytest.fixture(params=["plain", "isolated"])
def site(request):
    """(base URL, whether its pages are cross-origin isolated)."""
    isolated = request.param == "isolated"
    return request.getfixturevalue("isolated_base_url" if isolated else "base_url"), isolated


def open_warm(page, base_url):
    """Open the exercise, grade once (the runner keeps spares once the page has run code), and wait until the
    next run's interpreter and its spares are booted."""
    page.goto(f"{base_url}/exercises/sinusoidal_pe/")
    wait_until_ready(page)
    assert grade_in_page(page, SOLUTION)["passed"]
    page.wait_for_function("window.runner.isWarm()", timeout=PYTHON_READY_MS)
    return page


def test_stop_ends_a_runaway_run_and_the_next_run_grades(page, site):
    base_url, isolated = site
    open_warm(page, base_url)
    assert page.evaluate("self.crossOriginIsolated") == isolated
    set_time_limit(page, 120)  # far beyond what the test waits: only Stop can end this run in time
    stop = page.get_by_role("button", name="Stop")
    assert stop.is_hidden()
    start_runaway_run(page)
    assert stop.is_visible()
    assert stop.evaluate("button => button === document.activeElement")  # Run had the focus
    started = time.monotonic()
    page.keyboard.press("Enter")
    assert wait_for_results(page) == "0/6 tests passed"
    assert time.monotonic() - started < 30
    assert page.locator("#results .run-notice").inner_text() == STOPPED
    rows = shown_results(page)
    assert rows[0][:2] == ("error", TEST_NAMES[0])
    assert rows[0][2] == (f"{STOPPED}\n{STUCK_IN_LOOP}" if isolated else STOPPED)
    assert page.locator("#results .result-row").first.locator(".result-duration").is_visible()  # how long it ran
    # The five that never ran: one card says so for all of them.
    assert [status for status, _, _ in rows[1:]] == ["error"]
    assert page.locator("#results .not-run .result-group li").all_inner_texts() == TEST_NAMES[1:]
    assert stop.is_hidden()
    assert page.evaluate("document.activeElement.id") == "run-button"

    set_code(page, SOLUTION)
    assert run_and_wait(page).startswith("6/6 tests passed")


def test_after_the_time_limit_the_spare_grades_the_next_run(page, site):
    base_url, isolated = site
    open_warm(page, base_url)
    set_time_limit(page, 1)
    started = time.monotonic()
    report = grade_in_page(page, INFINITE_LOOP)
    elapsed_ms = (time.monotonic() - started) * 1000
    first = report["tests"][0]
    limit_message = "Time limit exceeded: the tests did not finish within 1 s."
    assert first["status"] == "timeout"
    assert first["message"] == (f"{limit_message}\n{STUCK_IN_LOOP}" if isolated else limit_message)
    assert 0 < first["duration_ms"] < elapsed_ms  # the time it ran, not 0
    # The spare took over when the limit fired: no interpreter had to boot.
    assert page.evaluate("window.runner.fresh[0].isReady")
    assert page.locator("#runtime-status").inner_text() == "Ready"
    set_time_limit(page, 60)  # the loop's 1 s is too short for honest code on a busy machine
    report = grade_in_page(page, SOLUTION)
    assert report["passed"], report

    set_time_limit(page, 1)
    report = grade_in_page(page, "while True:\n    pass\n")
    error = "Time limit exceeded: the tests did not finish within 1 s. (while loading your code)"
    assert report["error"] == (f"{error}\nStopped at line 1 of your code: while True:" if isolated else error)


TEST_LIMIT = 1.5
# Correct, but its calls in the third test (T = 8) take 5 s of CPU time: more than TEST_LIMIT, less than
# time_limit. CPU time, not wall-clock time: on a busy machine 5 s of wall-clock time may be less CPU time
# than the offline limit counts.
SLOW_THIRD_TEST = SOLUTION.replace("    return pe", """    if T == 8:
        import time
        started = time.process_time()
        while time.process_time() - started < 5:
            pass
    return pe""")


def test_a_test_over_its_own_limit_times_out_alone_as_offline(page, isolated_base_url, tmp_path):
    """test_time_limit: the slow test times out after its own limit, showing how long it ran, and the tests
    after it pass on a fresh interpreter, with the CLI's verdicts."""
    def with_test_limit(route):
        spec = json.loads(route.fetch().text())
        route.fulfill(json={**spec, "test_time_limit": TEST_LIMIT})
    page.route("**/sinusoidal_pe/grading.json", with_test_limit)
    open_warm(page, isolated_base_url)
    report = grade_in_page(page, SLOW_THIRD_TEST)
    offline = grade_with_cli(SLOW_THIRD_TEST, tmp_path, "slow third test", test_time_limit=TEST_LIMIT)
    assert verdict(report) == verdict(offline)
    assert [t["status"] for t in report["tests"]] == ["passed", "passed", "timeout", "passed", "passed", "passed"]
    # Offline the limit counts CPU time; the page can only count the time the call took.
    assert offline["tests"][2]["message"] == f"Time limit exceeded: this test's calls to your function used more " \
                                             f"than {TEST_LIMIT:g} s of CPU time (the limit for one test)."
    limit_message = f"Time limit exceeded: this test's calls to your function took more than {TEST_LIMIT:g} s " \
                    "(the limit for one test)."
    loop = "while time.process_time() - started < 5:"
    loop_line = SLOW_THIRD_TEST.splitlines().index(f"        {loop}") + 1
    assert report["tests"][2]["message"].split("\n") == [
        limit_message, f"Stopped at line {loop_line} of your code (in sinusoidal_pe): {loop}"]
    assert TEST_LIMIT * 1000 <= report["tests"][2]["duration_ms"] < 5000  # how long it ran
    assert report["score"] == offline["score"] == 5


def test_screenshots_of_a_run_and_its_stop(page, isolated_base_url, tmp_path):
    """Screenshots during a run (Stop shown) and after Stop, wide and narrow, light and dark, for a person to
    look at (kept in $MLEX_SCREENSHOTS if set, else in the test's tmp folder)."""
    folder = Path(os.environ.get("MLEX_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    open_warm(page, isolated_base_url)
    set_time_limit(page, 120)
    start_runaway_run(page)
    shots = {"running": lambda: None, "stopped": lambda: (page.click("#stop-button"), wait_for_results(page))}
    for moment, reach in shots.items():
        reach()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for name, width in (("wide", 1280), ("narrow", 390)):
                page.set_viewport_size({"width": width, "height": 900})
                show_pane(page, "code")
                page.locator(".actions").scroll_into_view_if_needed()
                page.screenshot(path=folder / f"run-{moment}-{name}-{scheme}.png")
    assert len(list(folder.glob("run-*.png"))) == 8

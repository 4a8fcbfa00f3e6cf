"""The exercise page in Chromium: editor, running the tests, results, time limit, storage, hints, solution."""

import json
import os
import time
from pathlib import Path

from conftest import wait_until_ready
from page_helpers import (INFINITE_LOOP, SOLUTION, STACK_OVERFLOW, STARTER, TEST_NAMES, editor_text, run_and_wait,
                          set_code, set_time_limit, show_pane, shown_results, wait_for_results)

# Typed key by key; the editor indents the lines after `def` by itself.
TYPED_SOLUTION = [
    "import numpy as np",
    "def sinusoidal_pe(T, C):",
    "a = np.arange(T)[:, None] / 10000 ** (np.arange(0, C, 2) / C)",
    "return np.stack([np.sin(a), np.cos(a)], axis=2).reshape(T, C)",
]


def test_typed_correct_solution_passes_all_six_tests(open_exercise):
    page = open_exercise()
    page.click("#editor .cm-content")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    for line in TYPED_SOLUTION:
        page.keyboard.type(line)
        page.keyboard.press("Escape")  # close any completion popup, so Enter is a newline
        page.keyboard.press("Enter")
    assert editor_text(page).startswith("import numpy as np\ndef sinusoidal_pe(T, C):\n    a = np.arange(T)[:, None]")

    assert run_and_wait(page).startswith("6/6 tests passed")
    assert shown_results(page) == [("passed", name, "") for name in TEST_NAMES]
    assert page.evaluate("localStorage.getItem('mlex:progress:sinusoidal_pe')") == "solved"


def test_editor_indents_with_tab_when_asked_and_undoes(open_exercise):
    page = open_exercise()
    set_code(page, "x = 1")
    page.click("#editor-settings summary")
    page.check("#editor-tab-indents")  # by default Tab moves on (test_editor_settings_and_theme.py)
    page.click("#editor .cm-content")
    page.keyboard.press("ControlOrMeta+Home")
    page.keyboard.press("Tab")
    assert editor_text(page) == "    x = 1"
    page.keyboard.press("ControlOrMeta+z")
    assert editor_text(page) == "x = 1"
    assert page.locator("#editor .cm-lineNumbers").is_visible()
    assert page.locator("#editor .cm-line span").count() > 0  # syntax highlighting wraps tokens in spans


def test_wrong_solution_shows_which_tests_fail_and_why(open_exercise):
    page = open_exercise()
    set_code(page, (Path(__file__).parents[2] / "exercises/sinusoidal_pe/mutants/swapped_sin_cos.py").read_text())
    summary = run_and_wait(page)
    rows = shown_results(page)
    statuses = [status for status, _, _ in rows]
    assert summary == f"{statuses.count('passed')}/6 tests passed"
    assert "failed" in statuses and "passed" in statuses
    assert [name for _, name, _ in rows] == TEST_NAMES
    position_zero = rows[1]
    assert position_zero[0] == "failed"
    assert "sin and cos are swapped" in position_zero[2]
    assert page.locator("#results .result-row.failed .result-status").first.inner_text() == "Failed"
    assert page.evaluate("localStorage.getItem('mlex:progress:sinusoidal_pe')") == "attempted"
    assert page.locator("#solution").is_hidden()


def test_syntax_error_shows_its_line(open_exercise):
    page = open_exercise()
    set_code(page, "import numpy as np\n\ndef sinusoidal_pe(T, C)\n    return np.zeros((T, C))\n")
    assert run_and_wait(page) == "0/6 tests passed"
    assert "SyntaxError on line 3" in page.locator("#results .run-error").inner_text()
    assert {status for status, _, _ in shown_results(page)} == {"error"}


def test_printed_output_is_shown(open_exercise):
    page = open_exercise()
    set_code(page, SOLUTION + "\nprint('hello from the learner')\n")
    assert run_and_wait(page).startswith("6/6 tests passed")
    assert page.locator("#results .stdout").inner_text() == "hello from the learner\n"


def test_infinite_loop_hits_the_time_limit_and_the_page_recovers(open_exercise):
    page = open_exercise()
    set_time_limit(page, 2)
    set_code(page, INFINITE_LOOP)
    started = time.monotonic()
    summary = run_and_wait(page)
    elapsed = time.monotonic() - started
    assert summary == "0/6 tests passed"
    assert page.locator("#results .run-notice").inner_text() == "Time limit exceeded: the tests did not finish within 2 s."
    assert elapsed < 2 + 5, f"the time limit took {elapsed:.1f} s to stop the run"
    rows = shown_results(page)
    assert rows[0] == ("timeout", TEST_NAMES[0], "Time limit exceeded: the tests did not finish within 2 s.")
    assert all(status == "timeout" and message.startswith("Not run: Time limit exceeded")
               for status, _, message in rows[1:])
    assert page.locator("#run-button").is_enabled()

    set_code(page, SOLUTION)
    assert run_and_wait(page).startswith("6/6 tests passed")
    wait_until_ready(page)


def test_crash_of_the_python_runtime_is_reported_and_recovered(open_exercise):
    page = open_exercise()
    set_code(page, "import os\n\ndef sinusoidal_pe(T, C):\n    os._exit(3)\n")
    run_and_wait(page)
    rows = shown_results(page)
    assert rows[0][0] == "error" and "os._exit()" in rows[0][2]
    assert "exit code 3" in page.locator("#results .run-notice").inner_text()
    set_code(page, SOLUTION)
    assert run_and_wait(page).startswith("6/6 tests passed")


def test_fatal_error_of_pyodide_is_reported_and_recovered(open_exercise):
    page = open_exercise()
    set_code(page, STACK_OVERFLOW)
    run_and_wait(page)
    rows = shown_results(page)
    assert rows[0][0] == "error" and "crashed the Python runtime" in rows[0][2]
    assert all(status == "error" and message.startswith("Not run: ") for status, _, message in rows[1:])
    set_code(page, SOLUTION)
    assert run_and_wait(page).startswith("6/6 tests passed")


def test_an_invalid_event_stops_the_run_and_the_page_recovers(open_exercise):
    page = open_exercise()
    # The learner's code shares the worker with the grader, so it can post to the page itself (run 1).
    forged = {"type": "event", "runId": 1, "event": {"event": "test", "index": 99}}
    set_code(page, f"import js\n\njs.postMessage(js.JSON.parse({json.dumps(json.dumps(forged))}))\n")
    run_and_wait(page)
    notice = "Grading failed: the grading worker sent an invalid event (test index 99 out of range)."
    assert page.locator("#results .run-notice").inner_text() == notice
    # None of the six ran: one card says so for all of them.
    assert [status for status, _, _ in shown_results(page)] == ["error"]
    assert page.locator("#results .not-run .result-group li").all_inner_texts() == TEST_NAMES
    set_code(page, SOLUTION)
    assert run_and_wait(page).startswith("6/6 tests passed")


def test_run_button_is_disabled_during_a_run(open_exercise):
    page = open_exercise()
    set_time_limit(page, 1)
    set_code(page, INFINITE_LOOP)
    page.click("#run-button")
    assert page.locator("#run-button").is_disabled()
    wait_for_results(page)
    assert page.locator("#run-button").is_enabled()


def test_code_survives_a_reload(open_exercise, page):
    open_exercise()
    set_code(page, "# my work in progress\n")
    page.wait_for_function("localStorage.getItem('mlex:code:sinusoidal_pe') === '# my work in progress\\n'")
    page.reload()
    assert editor_text(page) == "# my work in progress\n"


def test_reset_restores_the_starter_after_confirming(open_exercise, page):
    open_exercise()
    set_code(page, "# to be thrown away\n")
    page.click("#reset-button")  # asks in the page (test_editor_settings_and_theme.py has Undo)
    page.click("#reset-no")
    assert editor_text(page) == "# to be thrown away\n"
    page.click("#reset-button")
    page.click("#reset-yes")
    assert editor_text(page) == STARTER
    page.reload()
    assert editor_text(page) == STARTER


def test_index_shows_the_exercise_as_solved(open_exercise, page, base_url):
    page.goto(f"{base_url}/index.html")
    assert page.locator('[data-progress-for="sinusoidal_pe"]').inner_text() == ""
    open_exercise()
    set_code(page, SOLUTION)
    assert run_and_wait(page).startswith("6/6")
    page.goto(f"{base_url}/index.html")
    assert page.locator('[data-progress-for="sinusoidal_pe"]').inner_text() == "Solved"


def test_ctrl_enter_runs_the_tests(open_exercise):
    page = open_exercise()
    set_code(page, SOLUTION)
    page.click("#editor .cm-content")
    page.keyboard.press("Control+Enter")
    assert wait_for_results(page).startswith("6/6 tests passed")
    assert editor_text(page) == SOLUTION  # no blank line inserted


def test_hints_are_revealed_one_at_a_time(open_exercise):
    page = open_exercise()
    hints = page.locator("#hints ol > li")
    assert hints.count() == 3
    for shown in range(1, 4):
        assert page.locator("#hint-button").is_visible()
        page.click("#hint-button")
        assert [hints.nth(i).is_visible() for i in range(3)] == [i < shown for i in range(3)]
    assert page.locator("#hint-button").is_hidden()
    assert page.evaluate("document.activeElement === document.querySelectorAll('#hints ol > li')[2]")


def test_solution_appears_after_passing(open_exercise):
    page = open_exercise()
    assert page.locator("#solution").is_hidden()
    set_code(page, SOLUTION)
    run_and_wait(page)
    page.locator("#solution").wait_for(state="visible")
    assert page.locator("#solution-code").inner_text() == SOLUTION


def test_screenshots(open_exercise, page, tmp_path):
    """Screenshots after a run, wide and narrow, light and dark, for a person to look at
    (kept in $MLEX_SCREENSHOTS if set, else in the test's tmp folder)."""
    folder = Path(os.environ.get("MLEX_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    open_exercise()
    set_code(page, (Path(__file__).parents[2] / "exercises/sinusoidal_pe/mutants/positions_from_one.py").read_text()
             + "\nprint('debug: table ready')\n")
    run_and_wait(page)
    page.click("#hint-button")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for name, width in (("wide", 1280), ("narrow", 390)):
            page.set_viewport_size({"width": width, "height": 900})
            show_pane(page, "problem")
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=folder / f"exercise-{name}-{scheme}-top.png")
            show_pane(page, "code")
            for part in ("#editor", "#results .stdout"):
                page.locator(part).scroll_into_view_if_needed()
                page.screenshot(path=folder / f"exercise-{name}-{scheme}-{part.split()[-1][1:]}.png")
    assert len(list(folder.glob("exercise-*.png"))) == 12

"""The results panel teaches (issue 12, points 2-4): per-test output, collapsed identical messages, editor marks,
pictures of failed array results, the score, and after passing a success panel; all of it survives a reload.
Each test uses one page for several checks (every page boots Python)."""

from conftest import wait_until_ready
from grader.exercise import load_all
from page_helpers import (EXERCISES, RUN_MS, SOLUTION, STARTER, TEST_NAMES, run_and_wait, set_code, shown_results,
                          wait_for_results)

MUTANT = (EXERCISES / "sinusoidal_pe/mutants/positions_from_one.py").read_text()
STARTER_RAISE_LINE = STARTER.splitlines().index("    raise NotImplementedError") + 1


def cursor_line(page):
    return page.evaluate("(v => v.state.doc.lineAt(v.state.selection.main.head).number)(window.editorView)")


def marked_lines(page):
    """1-based numbers of the editor lines holding an error mark."""
    return page.evaluate("""() => {
        const lines = [...document.querySelectorAll('#editor .cm-line')];
        return [...new Set([...document.querySelectorAll('#editor .cm-lintRange-error')]
            .map(mark => lines.indexOf(mark.closest('.cm-line')) + 1))];
    }""")


def test_results_show_each_tests_output_pictures_and_marks(open_exercise):
    page = open_exercise()
    results = page.locator("#results")

    # Stopped in the second test: the panel says it is running, then the rest are "Not run", in one card.
    set_code(page, SOLUTION.replace("    return pe", "    while T == 4:\n        pass\n    return pe"))
    page.click("#run-button")
    page.wait_for_function("document.getElementById('runtime-status').textContent === 'Running test 2 of 6…'",
                           timeout=RUN_MS)
    assert results.inner_text() == "Running the tests…"
    page.click("#stop-button")
    wait_for_results(page)
    rows = shown_results(page)
    assert [status for status, _, _ in rows] == ["passed", "error", "error"]
    assert page.locator("#results .result-row.not-run .result-status").inner_text() == "Not run"
    assert page.locator("#results .not-run .result-group li").all_inner_texts() == TEST_NAMES[2:]

    # The starter: one card for six identical NotImplementedErrors, its line marked; a click jumps to it.
    set_code(page, STARTER)
    assert run_and_wait(page) == "0/6 tests passed"
    assert page.locator("#results .score").inner_text() == "Score: 0 of 6 points"
    assert page.locator("#results .result-row").count() == 1
    assert page.locator("#results .result-group li").all_inner_texts() == TEST_NAMES
    assert page.locator("#results .result-message").count() == 1
    assert marked_lines(page) == [STARTER_RAISE_LINE]
    page.locator("#results .line-link").click()
    assert cursor_line(page) == STARTER_RAISE_LINE
    assert page.evaluate("window.editorView.hasFocus")

    # A wrong table: each test's own prints in its card, pictures of yours / expected / difference.
    set_code(page, MUTANT.replace("    return pe", "    print('table', T, C)\n    return pe"))
    run_and_wait(page)
    first = page.locator("#results .result-row").first
    assert first.locator(".test-stdout").text_content() == "table 16 8\ntable 5 2\ntable 1 6\ntable 7 12\n"
    assert page.locator("#results .stdout").count() == 0  # nothing was printed outside the tests
    hand_checked = page.locator("#results .result-row", has_text=TEST_NAMES[2])
    assert hand_checked.locator(".test-stdout").text_content() == "table 8 8\n"
    canvases = hand_checked.locator("canvas[role=img]")
    assert canvases.count() == 3
    labels = [canvases.nth(i).get_attribute("aria-label") for i in range(3)]
    assert labels[0].startswith("Yours: heatmap of an array of shape (8, 8), values from ")
    assert labels[1].startswith("Expected: heatmap") and labels[2].startswith("Yours − expected: heatmap")
    canvases.nth(0).hover(position={"x": 2, "y": 2})
    assert hand_checked.locator(".figure-readout").inner_text() == (
        "Row 0, column 0: yours 0.8415, expected 0, difference 0.8415")
    long_table = page.locator("#results .result-row", has_text=TEST_NAMES[5])
    assert "every 32nd row of 2048" in long_table.locator("figcaption").inner_text()

    # On a wide screen the results scroll in their own box under the editor, the verdict staying at its top.
    assert results.evaluate("r => [getComputedStyle(r).overflowY, r.scrollHeight > r.clientHeight]") == ["auto", True]
    page.locator("#results").evaluate("r => r.scrollTo(0, r.scrollHeight)")
    assert page.locator("#results .verdict").evaluate(
        "v => v.getBoundingClientRect().top - v.parentElement.getBoundingClientRect().top") < 1

    # A syntax error marks its line.
    set_code(page, "import numpy as np\n\ndef sinusoidal_pe(T, C)\n    return np.zeros((T, C))\n")
    run_and_wait(page)
    assert marked_lines(page) == [3]


def test_success_panel_and_what_survives_a_reload(open_exercise, page):
    open_exercise()
    page.click("#hint-button")
    set_code(page, SOLUTION)
    assert run_and_wait(page).startswith("6/6 tests passed")
    panel = page.locator("#results .success-panel")
    assert panel.locator(".success-attempts").inner_text() == "Solved after 1 run, 1 hint."
    assert panel.locator(".next-step").get_attribute("href") == page.locator("#track-nav a[rel=next]").evaluate(
        "a => a.href")
    # The comparison: a dialog with the line diff, every line shared; Escape closes it, back on its button.
    page.click(".compare-button")
    page.locator(".diff-dialog .diff").wait_for()
    assert page.locator(".diff-verdict").inner_text() == "Your code is the same as the reference."
    assert page.locator(".diff tbody tr").count() == page.locator(".diff tbody tr.diff-both").count()
    assert "\n".join(page.locator(".diff-code").all_text_contents()) == SOLUTION.rstrip("\n")
    page.keyboard.press("Escape")
    assert page.locator(".diff-dialog").count() == 0
    assert page.evaluate("document.activeElement.className") == "compare-button"

    page.reload()
    wait_until_ready(page)
    assert wait_for_results(page).startswith("6/6 tests passed")
    assert [page.locator("#hints ol > li").nth(i).is_visible() for i in range(2)] == [True, False]
    page.locator("#solution").wait_for(state="visible")
    assert run_and_wait(page).startswith("6/6 tests passed")
    assert panel.locator(".success-attempts").inner_text() == "Solved after 1 run, 1 hint."  # the first pass's

    # The track's last step (reached in-page, so Python stays warm): its next step is the track's capstone.
    last = max((e for e in load_all(EXERCISES) if e.track == "build-gpt"), key=lambda e: e.step).id
    page.evaluate("id => { const a = document.querySelector('#track-nav a'); a.href = `../${id}/`; a.click(); }", last)
    page.wait_for_function("id => document.body.dataset.exerciseId === id && window.editorView", arg=last)
    set_code(page, (EXERCISES / last / "solution.py").read_text())
    run_and_wait(page)
    assert page.locator("#results .summary.passed").count() == 1
    assert panel.locator(".next-step").inner_text() == "Capstone → Your GPT learns"
    assert panel.locator(".next-step").get_attribute("href").endswith("/capstone/")
    assert panel.locator(".track-complete").count() == 0

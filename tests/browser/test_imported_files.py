"""An imported progress file cannot freeze a page.

The editor lays out a long line of mixed-direction text in time that grows with its square, and the comparison
with the reference diffs in time that grows with the product of the two lengths. The import refuses code (the
latest, the latest passing, a result's source) past the page's limits, naming the entry and what is wrong; what
it lets through opens, and compares, without the main thread stalling for 2 s (long tasks, as the browser
reports them).
"""

import json
import os
from pathlib import Path

import pytest

from conftest import wait_until_ready
from page_helpers import SOLUTION, grade_in_page, import_file, wait_for_editor

MIXED = "abc \u05d0\u05d1\u05d2 "  # Latin then Hebrew: a line whose direction changes every 4 characters
MAX_LINE_LENGTH, MAX_SOURCE_LINES = 5_000, 10_000  # as site/js/saved-results.js
LONGEST_TASK_MS = 2_000
# Every long task the page's main thread runs, from the document's start.
WATCH_LONG_TASKS = """window.longTasks = [];
new PerformanceObserver((list) => { for (const task of list.getEntries()) window.longTasks.push(task.duration); })
  .observe({type: "longtask", buffered: true});"""


def mixed_line(length):
    return ("x = '" + MIXED * length)[:length - 1] + "'"


def progress_file(entries):
    return json.dumps({"format": "ml-exercises-progress", "version": 1, "entries": entries})


@pytest.fixture
def passing_results(open_exercise, page):
    """The results entry the page keeps after the reference solution passes, as a dict."""
    open_exercise()
    assert grade_in_page(page, SOLUTION)["passed"]
    page.wait_for_function("JSON.parse(localStorage.getItem('mlex:results:sinusoidal_pe') ?? 'null')?.report.passed")
    saved = json.loads(page.evaluate("localStorage.getItem('mlex:results:sinusoidal_pe')"))
    page.evaluate("localStorage.clear()")
    return saved


def test_code_past_the_limits_is_refused_with_the_entry_named(page, base_url, passing_results):
    page.goto(f"{base_url}/index.html")
    lines_60000 = {**passing_results, "source": "x = 1\n" * 60_000}
    refused = {
        "long-line": ({"mlex:code:sinusoidal_pe": mixed_line(180_000)},
                      'entry "mlex:code:sinusoidal_pe" is not valid code (line 1 of the code has 180,000 '
                      'characters; a line is at most 5,000).'),
        "long-line-later": ({"mlex:passed:sinusoidal_pe": SOLUTION + mixed_line(MAX_LINE_LENGTH + 1)},
                            f'entry "mlex:passed:sinusoidal_pe" is not valid code (line {SOLUTION.count(chr(10)) + 1}'
                            ' of the code has 5,001 characters; a line is at most 5,000).'),
        "many-lines": ({"mlex:results:sinusoidal_pe": json.dumps(lines_60000)},
                       'entry "mlex:results:sinusoidal_pe" is not valid test results (its source: the code has '
                       '60,000 lines; code is at most 10,000 lines).'),
        "large": ({"mlex:code:sinusoidal_pe": ("#" * 4_000 + "\n") * 251},
                  'entry "mlex:code:sinusoidal_pe" is not valid code (the code has 1,004,251 characters; code is at '
                  'most 1,000,000).'),
    }
    for name, (entries, said) in refused.items():
        message, is_error = import_file(page, f"{name}.json", progress_file({"mlex:progress:sinusoidal_pe": "solved",
                                                                            **entries}))
        assert is_error and message == f"Nothing was imported from {name}.json. The file's {said}", message
    assert page.evaluate("Object.keys(localStorage).filter((key) => key.startsWith('mlex:'))") == []


def test_code_at_the_limits_opens_and_compares_without_a_stall(page, base_url, passing_results):
    """The longest line and the most lines the import lets through: the editor opens the code, and the comparison
    shows the two side by side, each within the stall budget; honest code still gets the line diff."""
    code = mixed_line(MAX_LINE_LENGTH) + "\n" + SOLUTION
    many_lines = SOLUTION + "# x\n" * (MAX_SOURCE_LINES - SOLUTION.count("\n"))
    page.goto(f"{base_url}/index.html")
    message, is_error = import_file(page, "limits.json", progress_file({
        "mlex:code:sinusoidal_pe": code,
        "mlex:results:sinusoidal_pe": json.dumps({**passing_results, "source": many_lines})}))
    assert not is_error, message
    page.context.add_init_script(WATCH_LONG_TASKS)
    page.goto(f"{base_url}/exercises/sinusoidal_pe/")
    wait_for_editor(page)
    assert page.evaluate("window.editorView.state.doc.toString()") == code
    page.click(".compare-button")
    page.locator(".diff-dialog .diff-sides").wait_for()
    assert page.locator(".diff-verdict").inner_text() == (
        "Too long to compare line by line (10,000 lines in yours, "
        f"{SOLUTION.count(chr(10)):,} lines in the reference): here are both in full.")
    assert page.locator(".diff-side pre").first.inner_text().count("\n") >= MAX_SOURCE_LINES - 1
    page.keyboard.press("Escape")
    wait_until_ready(page)
    assert max(page.evaluate("window.longTasks"), default=0) < LONGEST_TASK_MS

    # Honest code that passes: the line diff as before.
    assert grade_in_page(page, SOLUTION + "# mine\n")["passed"]
    page.click(".compare-button")
    page.locator(".diff-dialog .diff").wait_for()
    assert page.locator(".diff-verdict").inner_text() == "1 line only in yours, 0 lines only in the reference."


def test_screenshots_of_a_refused_import(page, base_url, tmp_path):
    """The refusal, wide and narrow, light and dark, for a person to look at (kept in $MLEX_SCREENSHOTS if set,
    else in the test's tmp folder)."""
    folder = Path(os.environ.get("MLEX_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.goto(f"{base_url}/index.html")
    import_file(page, "progress.json", progress_file({"mlex:code:sinusoidal_pe": mixed_line(180_000)}))
    message = page.locator("#progress-message")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for name, width in (("wide", 1280), ("narrow", 390)):
            page.set_viewport_size({"width": width, "height": 900})
            message.scroll_into_view_if_needed()
            box = message.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width  # the message wraps within the page
            page.screenshot(path=folder / f"import-refused-{name}-{scheme}.png")
    assert len(list(folder.glob("import-refused-*.png"))) == 4


def test_a_pasted_long_line_stops_wrapping_instead_of_freezing_the_editor(page, base_url):
    """The learner's own paste (no import limits there): a line past 5,000 characters turns line wrapping off
    while it is there (a wrapped line of 180,000 mixed-direction characters took 5 s to lay out)."""
    page.context.add_init_script(WATCH_LONG_TASKS)
    page.goto(f"{base_url}/exercises/sinusoidal_pe/")
    wait_for_editor(page)
    wrapping = "() => document.querySelector('.cm-content').classList.contains('cm-lineWrapping')"
    assert page.evaluate(wrapping)  # the default
    page.evaluate("window.longTasks = []")
    page.evaluate("""line => { const view = window.editorView;
        view.dispatch({changes: {from: view.state.doc.length, insert: "\\n" + line}}); }""", mixed_line(180_000))
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("ab")
    assert page.evaluate("window.editorView.state.doc.toString()").endswith("'ab")
    assert not page.evaluate(wrapping)
    page.evaluate("""() => { const view = window.editorView, line = view.state.doc.line(view.state.doc.lines);
        view.dispatch({changes: {from: line.from - 1, to: line.to}}); }""")
    assert page.evaluate(wrapping)
    assert max(page.evaluate("window.longTasks"), default=0) < LONGEST_TASK_MS

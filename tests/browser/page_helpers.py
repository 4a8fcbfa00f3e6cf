"""Page helpers and submissions shared by the browser tests."""

import json
from pathlib import Path

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
SOLUTION = (EXERCISES / "sinusoidal_pe" / "solution.py").read_text()
STARTER = (EXERCISES / "sinusoidal_pe" / "starter.py").read_text()
TEST_NAMES = [
    "Output shape is (T, C)",
    "At position t=0, even dims are 0 (sin) and odd dims are 1 (cos)",
    "Matches the explicit formula at a hand-checked entry",
    "All values lie in [-1, 1]",
    "Different positions produce different encodings (no collisions)",
    "Larger sequence length still produces a valid table (extrapolation)",
]
INFINITE_LOOP = "def sinusoidal_pe(T, C):\n    while True:\n        pass\n"
# Recursion through a C function (map) overflows the C stack before Python's recursion limit:
# a segfault in CPython, a fatal error that leaves Pyodide unusable in the browser.
STACK_OVERFLOW = """import sys


def recurse(n):
    return list(map(recurse, [n + 1]))


def sinusoidal_pe(T, C):
    sys.setrecursionlimit(10**6)
    return recurse(0)
"""
RUN_MS = 60_000  # a run, including a worker restart after a crash


def set_code(page, source):
    page.evaluate("""source => {
        const view = window.editorView;
        view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: source}});
    }""", source)


def editor_text(page):
    return page.evaluate("window.editorView.state.doc.toString()")


def wait_for_results(page):
    """Wait until a run has ended and its results are shown; return the summary text."""
    page.wait_for_function("""() => !document.getElementById('results').hasAttribute('aria-busy')
                                    && document.querySelector('#results .summary')""", timeout=RUN_MS)
    return page.locator("#results .summary").inner_text()


def run_and_wait(page):
    page.click("#run-button")
    return wait_for_results(page)


def shown_results(page):
    """[(status class, name, message)] for each row of the results panel."""
    rows = page.evaluate("""() => [...document.querySelectorAll('#results .result-row')].map(row => [
        [...row.classList].find(c => c !== 'result-row'),
        row.querySelector('.result-name').textContent,
        row.querySelector('.result-message')?.textContent ?? '',
    ])""")
    return [tuple(row) for row in rows]


def grade_in_page(page, source):
    return page.evaluate("source => window.gradeSubmission(source)", source)


def set_time_limit(page, seconds):
    page.evaluate(f"document.body.dataset.timeLimit = {json.dumps(str(seconds))}")

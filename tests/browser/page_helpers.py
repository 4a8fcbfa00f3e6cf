"""Page helpers and submissions shared by the browser tests."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
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
# The same table with loops over positions and pairs: another approach than the reference's broadcasting.
LOOP_SOLUTION = """import math
import numpy as np


def sinusoidal_pe(T, C):
    pe = np.zeros((T, C))
    for t in range(T):
        for i in range(C // 2):
            angle = t / 10000 ** (2 * i / C)
            pe[t, 2 * i] = math.sin(angle)
            pe[t, 2 * i + 1] = math.cos(angle)
    return pe
"""
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


def wait_for_editor(page):
    """The editor is a chunk of its own, mounted once it has loaded (possibly after the page's load event)."""
    page.wait_for_function("window.editorView !== undefined")


def show_pane(page, pane):
    """On narrow screens the exercise page is two tabs: show "problem" or "code" (nothing to do when wide).
    Right after a resize the tabs may not show yet (they follow a media query's change event): the click waits."""
    if page.evaluate("matchMedia('(max-width: 62rem)').matches"):
        page.click(f"#pane-tab-{pane}")


def set_code(page, source):
    wait_for_editor(page)
    page.evaluate("""source => {
        const view = window.editorView;
        view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: source}});
    }""", source)


def start_runaway_run(page):
    """Run the tests on a loop that never ends, and wait until it is running."""
    set_code(page, INFINITE_LOOP)
    page.click("#run-button")
    page.wait_for_function("document.getElementById('runtime-status').textContent === 'Running test 1 of 6…'")


def editor_text(page):
    wait_for_editor(page)
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


def import_file(page, name, content):
    """Import a file through the Import button's file chooser; returns the message shown and whether it is an error."""
    with page.expect_file_chooser() as chooser:
        page.click("#import-progress")
    data = content if isinstance(content, bytes) else content.encode()
    chooser.value.set_files({"name": name, "mimeType": "application/json", "buffer": data})
    page.wait_for_function("name => document.getElementById('progress-message').textContent.includes(name)",
                           arg=name)
    message = page.locator("#progress-message")
    return message.inner_text(), "is-error" in (message.get_attribute("class") or "")


def grade_in_page(page, source):
    return page.evaluate("source => window.gradeSubmission(source)", source)


def set_time_limit(page, seconds):
    page.evaluate(f"document.body.dataset.timeLimit = {json.dumps(str(seconds))}")


def grade_with_cli(source, tmp_path, name, exercise="sinusoidal_pe", time_limit=None, test_time_limit=None):
    """The report of `python -m grader check EXERCISE FILE --json` (an id or a folder) on `source`."""
    path = tmp_path / (name.replace(" ", "_").replace("/", "_") + ".py")
    path.write_text(source, encoding="utf-8")
    command = [sys.executable, "-m", "grader", "check", str(exercise), str(path), "--json"]
    if time_limit is not None:
        command += ["--timeout", str(time_limit)]
    if test_time_limit is not None:
        command += ["--test-timeout", str(test_time_limit)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode in (0, 1), f"{name}: the CLI failed:\n{result.stderr}"
    return json.loads(result.stdout)


def verdict(report):
    """What the page and the CLI must agree on."""
    return {"statuses": [t["status"] for t in report["tests"]], "passed": report["passed"],
            "has error": report["error"] is not None, "stdout": report["stdout"],
            "stdout per test": [t["stdout"] for t in report["tests"]]}


def _solution_with(top="", in_function="", at_end=""):
    """The reference solution with lines added after `import numpy as np`, before `return pe` and at the end."""
    return (SOLUTION.replace("import numpy as np\n", "import numpy as np\n" + top, 1)
            .replace("    return pe", in_function + "    return pe") + at_end)


# Correct submissions that also touch state the hidden tests share with them in the page (numpy's random
# state and error handling, warnings, ...); many print, so that per-test output is compared too.
HONEST_SUBMISSIONS = {
    "default_rng in the function": _solution_with(
        in_function=("    rng = np.random.default_rng(0)\n"
                     "    print(T, C, rng.random(3), rng.integers(0, 100, size=2))\n")),
    "default_rng at import": _solution_with(
        in_function="    print(T, C, _RNG.integers(0, 1000))\n",
        at_end="\n_RNG = np.random.default_rng(0)\nprint('first draw', _RNG.random())\n"),
    "np.random.seed and rand": _solution_with(
        in_function="    np.random.seed(T * C)\n    print(np.random.rand(), np.random.rand(2))\n",
        at_end="\nnp.random.seed(0)\nprint('at import', np.random.rand(3))\n"),
    "warnings.warn": _solution_with(
        top="import warnings\n",
        in_function='    warnings.warn(f"a table of {T} x {C}")\n',
        at_end='\nwarnings.warn("loaded", RuntimeWarning)\n'),
    "np.seterr(all='raise') at import": _solution_with(top='np.seterr(all="raise")\n'),
    "printing arrays": _solution_with(in_function="    print(pe)\n    print(repr(pe[-1]), pe.shape, pe.dtype)\n"),
    "recursion": """import numpy as np


def _pairs(pe, positions, i):
    C = pe.shape[1]
    if 2 * i == C:
        return pe
    angles = positions / 10000.0 ** (2 * i / C)
    pe[:, 2 * i], pe[:, 2 * i + 1] = np.sin(angles), np.cos(angles)
    return _pairs(pe, positions, i + 1)


def _rows(lo, hi, C):
    if hi - lo == 1:
        return _pairs(np.empty((1, C)), np.array([float(lo)]), 0)
    middle = (lo + hi) // 2
    return np.concatenate([_rows(lo, middle, C), _rows(middle, hi, C)])


def _depth(n):
    return 0 if n == 0 else 1 + _depth(n - 1)


def sinusoidal_pe(T, C):
    print("depth", _depth(300))
    return _rows(0, T, C)
""",
    "functools.lru_cache": """import functools

import numpy as np


@functools.lru_cache(maxsize=None)
def _frequencies(C):
    return tuple(1.0 / 10000.0 ** (2 * i / C) for i in range(C // 2))


@functools.lru_cache(maxsize=4)
def _table(T, C):
    angles = np.arange(T, dtype=np.float64)[:, None] * np.array(_frequencies(C))
    pe = np.empty((T, C))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return pe


def sinusoidal_pe(T, C):
    pe = _table(T, C).copy()
    print(_frequencies.cache_info(), _table.cache_info())
    return pe
""",
}

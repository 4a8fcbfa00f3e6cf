"""The page grades like the CLI.

1. Submissions graded by window.gradeSubmission and by `python -m grader check --json`
   get the same status per test, the same `passed`, an error in the same cases and
   the same printed output.
2. site/js/report.js (which builds the page's report when it has to stop a run)
   agrees with grader/core/report.py on the same events, cut off at every point.
"""

import json
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grader.core.engine import GradingSpec, grade
from grader.core.report import STDOUT_LIMIT, ReportBuilder
from page_helpers import SOLUTION, STACK_OVERFLOW, TEST_NAMES, grade_in_page, set_time_limit

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = ROOT / "exercises" / "sinusoidal_pe"
CORPUS = ROOT / "tests" / "corpus" / "sinusoidal_pe"
TIME_LIMIT = 3

# Differences between CPython and Pyodide, not between the two graders.
PLATFORM_DIFFERENCES = {
    "memory_hog.py",       # the CLI's 1 GB memory limit stops it; the browser's wasm heap is larger, so it times out
    "spinning_thread.py",  # Pyodide cannot start threads at all
}
# Endless loops like loop_at_import / loop_in_function, which already cover the timeout path.
SLOW_AND_REDUNDANT = {"print_flood_forever.py", "recursion_limit_raised.py"}

EXTRA_SUBMISSIONS = {
    "vectorised": SOLUTION,
    "loop": """import math
import numpy as np


def sinusoidal_pe(T, C):
    pe = np.zeros((T, C))
    for t in range(T):
        for i in range(C // 2):
            angle = t / 10000 ** (2 * i / C)
            pe[t, 2 * i] = math.sin(angle)
            pe[t, 2 * i + 1] = math.cos(angle)
    return pe
""",
    "float32": SOLUTION.replace("return pe", "return pe.astype(np.float32)"),
    "syntax error": "def sinusoidal_pe(T, C)\n    return None\n",
    "exception": "def sinusoidal_pe(T, C):\n    raise ValueError('not yet')\n",
    "exception at import": "import numpy as np\nnp.zeros(3)[7]\n",
    "missing function": "def positional_encoding(T, C):\n    return None\n",
    "sys.exit": "import sys\n\n\ndef sinusoidal_pe(T, C):\n    sys.exit(2)\n",
    "os._exit after a test": SOLUTION.replace("    return pe", "    if T == 4:\n        import os\n        os._exit(1)\n    return pe"),
    "C stack overflow": STACK_OVERFLOW,
    "NaN": "import numpy as np\n\n\ndef sinusoidal_pe(T, C):\n    return np.full((T, C), np.nan)\n",
    "prints": SOLUTION + "\nprint('table ready', 3 * 'é😀')\n",
    "loop in the third test": SOLUTION.replace("    return pe", "    while T == 8:\n        pass\n    return pe"),
}


def corpus():
    cases = dict(EXTRA_SUBMISSIONS)
    for path in sorted((EXERCISE / "mutants").glob("*.py")):
        cases[f"mutant {path.name}"] = path.read_text()
    for path in sorted(CORPUS.glob("*.py")):
        if path.name not in PLATFORM_DIFFERENCES | SLOW_AND_REDUNDANT:
            cases[f"corpus {path.name}"] = path.read_text()
    return cases


def grade_with_cli(source, tmp_path, name):
    path = tmp_path / (name.replace(" ", "_").replace("/", "_") + ".py")
    path.write_text(source, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "grader", "check", "sinusoidal_pe", str(path), "--json",
                             "--timeout", str(TIME_LIMIT)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode in (0, 1), f"{name}: the CLI failed:\n{result.stderr}"
    return json.loads(result.stdout)


def verdict(report):
    return {"statuses": [t["status"] for t in report["tests"]], "passed": report["passed"],
            "has error": report["error"] is not None, "stdout": report["stdout"]}


def test_page_and_cli_give_the_same_verdicts(open_exercise, tmp_path):
    cases = corpus()
    with ThreadPoolExecutor(max_workers=2) as pool:
        cli = {name: pool.submit(grade_with_cli, source, tmp_path, name) for name, source in cases.items()}
        page = open_exercise()
        set_time_limit(page, TIME_LIMIT)
        browser = {name: grade_in_page(page, source) for name, source in cases.items()}
        mismatches = {}
        for name in cases:
            expected, got = verdict(cli[name].result()), verdict(browser[name])
            if got != expected:
                mismatches[name] = {"cli": expected, "browser": got, "browser error": browser[name]["error"]}
    assert not mismatches, json.dumps(mismatches, indent=1, ensure_ascii=False)
    assert verdict(browser["vectorised"])["statuses"] == ["passed"] * 6
    assert verdict(browser["loop in the third test"])["statuses"] == ["passed", "passed"] + ["timeout"] * 4


# --- report.js against report.py ---

NODE_DRIVER = """
import { ReportBuilder } from "./report.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(0, "utf8"));
const reports = cases.map(({ names, events, interruption }) => {
  const builder = new ReportBuilder("ex", names);
  events.forEach((event) => builder.add(event));
  return builder.finish(interruption);
});
process.stdout.write(JSON.stringify(reports));
"""

THREAD_SUBMISSION = """import threading, time
import numpy as np


def sinusoidal_pe(T, C):
    threading.Thread(target=time.sleep, args=(0.2,)).start()
    return np.zeros((T, C))
"""


def recorded_runs():
    """Event streams of real engine runs (in this interpreter) plus a few made by hand."""
    spec = GradingSpec("ex", "sinusoidal_pe", (EXERCISE / "tests.py").read_text())
    sources = [SOLUTION, EXTRA_SUBMISSIONS["syntax error"], EXTRA_SUBMISSIONS["exception at import"],
               EXTRA_SUBMISSIONS["missing function"], EXTRA_SUBMISSIONS["NaN"], EXTRA_SUBMISSIONS["prints"],
               THREAD_SUBMISSION, SOLUTION + "\nprint('x' * 40_000)\n",
               (EXERCISE / "mutants" / "swapped_sin_cos.py").read_text()]
    runs = []
    for source in sources:
        events = []
        grade(spec, source, events.append)
        runs.append(events)
    assert any(event["event"] == "aborted" for events in runs for event in events)
    start = {"event": "start", "exercise": "ex", "tests": TEST_NAMES}
    runs.append([start, {"event": "stdout", "text": "😀" * (STDOUT_LIMIT + 5)}, {"event": "loaded", "error": None},
                 {"event": "test_start", "index": 0},
                 {"event": "test", "index": 0, "status": "skipped", "message": "?", "duration_ms": 1.5}])
    runs.append([start, {"event": "stdout", "text": "a" * (STDOUT_LIMIT - 2)}, {"event": "stdout", "text": "é😀bc"},
                 {"event": "stdout", "text": "more"}, {"event": "loaded", "error": None},
                 {"event": "test_start", "index": 0},
                 {"event": "test", "index": 0, "status": "failed", "message": "m", "duration_ms": 2.0004}])
    return runs


def without_durations(report):
    return {**report, "tests": [{k: v for k, v in t.items() if k != "duration_ms"} for t in report["tests"]]}


def test_report_js_matches_report_py(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    shutil.copyfile(ROOT / "site" / "js" / "report.js", tmp_path / "report.mjs")
    (tmp_path / "driver.mjs").write_text(NODE_DRIVER)
    interruptions = [None, ["timeout", "Time limit exceeded: the tests did not finish within 2 s."],
                     ["error", "Your code crashed the Python runtime."]]
    cases, expected = [], []
    for events in recorded_runs():
        for cut in range(len(events) + 1):  # every point where the run could have been stopped
            for interruption in interruptions:
                builder = ReportBuilder("ex", TEST_NAMES)
                for event in events[:cut]:
                    builder.add(event)
                expected.append(builder.finish(tuple(interruption) if interruption else None))
                cases.append({"names": TEST_NAMES, "events": events[:cut], "interruption": interruption})
    result = subprocess.run([node, "driver.mjs"], cwd=tmp_path, input=json.dumps(cases), capture_output=True,
                            text=True, check=True)
    got = json.loads(result.stdout)
    assert len(got) == len(expected)
    for case, js, py in zip(cases, got, expected):
        assert without_durations(js) == without_durations(py), case
        for js_test, py_test in zip(js["tests"], py["tests"]):
            assert js_test["duration_ms"] == pytest.approx(py_test["duration_ms"], abs=1e-3)

"""The page grades like the CLI.

1. Submissions graded by window.gradeSubmission and offline as `python -m grader check --json` grades them
   get the same status per test, the same `passed`, an error in the same cases and
   the same printed output, in all and test by test.  Correct code that touches
   state the page's single interpreter shares with the hidden tests passes in both.
   Every case of the submission corpus (correct, wrong and hostile) also gets the
   verdict its header asks for in the page, within its time limit plus a margin, and
   the page, one for all of them, keeps grading the next one: a timeout or a crash of
   a worker costs a fresh worker, never the page.
2. site/js/report.js (which builds the page's report when it has to stop a run)
   agrees with grader/core/report.py on the same events, cut off at every point,
   and rejects the same malformed events.
"""

import json
import math
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from corpus_cases import load_cases, problems
from toolchain import node as nodejs
from grader.core.engine import GradingSpec, grade, run_tests
from grader.core.report import MESSAGE_LIMIT, STDOUT_LIMIT, InvalidEvent, ReportBuilder
from grader.checker.sandbox import Sandbox
from grader.checker.supervisor import Grader, Limits
from grader.cli import importable_as_in_the_browser
from grader.exercise import load_exercise
from grader.track import reference_steps
from page_helpers import (EXERCISES, HONEST_SUBMISSIONS, LOOP_SOLUTION, ROOT, SOLUTION, STACK_OVERFLOW, TEST_NAMES,
                          grade_in_page, set_time_limit, verdict)

EXERCISE = EXERCISES / "sinusoidal_pe"
TIME_LIMIT = 3
# A worker stopped for its time limit or a crash is replaced by the spare, which may still be booting.
MARGIN = 30

# Differences between CPython and Pyodide, not between the two graders (graded in the page only).
PLATFORM_DIFFERENCES = {
    "memory_hog.py",       # the CLI's 1 GB memory limit stops it; the browser's wasm heap is larger, so it times out
    "spinning_thread.py",  # Pyodide cannot start threads at all
}
# Offline, the test after a crash gets a fresh learner process; in the page the runtime is gone, so the
# remaining tests are not run.
ENDS_THE_RUNTIME = {"os._exit after a test": ["passed"] + ["error"] * 5}
# Endless loops like loop_at_import / loop_in_function, which already cover the timeout path offline.
SLOW_OFFLINE = {"print_flood_forever.py", "recursion_limit_raised.py"}

# Modules the page's Pyodide lacks: offline grading refuses them too, with the same message.
MISSING_FROM_PYODIDE = {
    "import scipy": "import scipy\n" + SOLUTION,
    "import resource in the function": SOLUTION.replace("    return pe", "    import resource\n    return pe"),
}

EXTRA_SUBMISSIONS = {
    "vectorised": SOLUTION,
    "loop": LOOP_SOLUTION,
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
    **HONEST_SUBMISSIONS,
    **MISSING_FROM_PYODIDE,
}


def submissions():
    """{name: source} graded in the page and by the CLI, and {name: corpus case} graded in the page only."""
    cases = dict(EXTRA_SUBMISSIONS)
    for path in sorted((EXERCISE / "mutants").glob("*.py")):
        cases[f"mutant {path.name}"] = path.read_text()
    page_only = {}
    for case in load_cases("sinusoidal_pe"):
        # Tampering that only the offline grader resists is no verdict of the page's.
        if case.offline_only:
            continue
        if case.path.name in PLATFORM_DIFFERENCES | SLOW_OFFLINE:
            page_only[f"corpus {case.path.name}"] = case
        else:
            cases[f"corpus {case.path.name}"] = case.source
    return cases, page_only


def graded_offline(cases):
    """{name: report} as `python -m grader check sinusoidal_pe FILE --timeout TIME_LIMIT --json` grades each case
    (its limits, import rule and sandbox), two at a time in one process: the CLI's own output is
    tests/test_cli_check.py's, and a process per case would cost more than the grading."""
    exercise = load_exercise("sinusoidal_pe")
    sandbox = Sandbox("auto", hide=[exercise.path])
    try:
        limits = Limits(time_limit=TIME_LIMIT, test_limit=exercise.test_time_limit,
                        importable=importable_as_in_the_browser())
        grader = Grader(exercise.grading_spec(), limits, sandbox, earlier=reference_steps(exercise))
        return dict(grader.grade_all(cases.items(), 2))
    finally:
        sandbox.close()


def test_page_and_cli_give_the_same_verdicts(open_exercise):
    cases, page_only = submissions()
    corpus = {case.path.name: case for case in load_cases("sinusoidal_pe")}
    with ThreadPoolExecutor(max_workers=1) as pool:
        offline = pool.submit(graded_offline, cases)
        page = open_exercise()
        set_time_limit(page, TIME_LIMIT)
        browser, seconds = {}, {}
        for name, source in [*cases.items(), *((name, case.source) for name, case in page_only.items())]:
            started = time.monotonic()
            browser[name] = grade_in_page(page, source)
            seconds[name] = time.monotonic() - started
        cli = offline.result()
        mismatches = {}
        for name in cases.keys() - ENDS_THE_RUNTIME.keys():
            expected, got = verdict(cli[name]), verdict(browser[name])
            if got != expected:
                mismatches[name] = {"cli": expected, "browser": got, "browser error": browser[name]["error"]}
    assert not mismatches, json.dumps(mismatches, indent=1, ensure_ascii=False)
    wrong = {name: problems(corpus[name.removeprefix("corpus ")], browser[name])
             for name in browser if name.startswith("corpus ")}
    assert not {name: found for name, found in wrong.items() if found}
    assert max(seconds.values()) < TIME_LIMIT + MARGIN, seconds
    assert verdict(browser["vectorised"])["statuses"] == ["passed"] * 6
    assert verdict(browser["loop in the third test"])["statuses"] == ["passed", "passed"] + ["timeout"] * 4
    assert {name for name in HONEST_SUBMISSIONS if not browser[name]["passed"]} == set()
    for name, statuses in ENDS_THE_RUNTIME.items():
        assert verdict(browser[name])["statuses"] == statuses
    for name in MISSING_FROM_PYODIDE:
        messages = [(report["error"], [t["message"] for t in report["tests"]])
                    for report in (browser[name], cli[name])]
        assert messages[0] == messages[1] and "No module named" in str(messages[0]), name


# --- report.js against report.py ---

BROKEN_TEST = '''

def test_broken(sinusoidal_pe):
    """The author's bug"""
    sinusoidal_pe(2, 2)
    {}["typo"]
'''


# Each case: the events of a run up to some point, then finish(interruption).  A builder that rejects an
# event stops there, as the page's runner and the offline supervisor do; "rejected" is that event's index.
NODE_DRIVER = """
import { InvalidEvent, ReportBuilder } from "./report.mjs";
import { readFileSync } from "node:fs";
// Numbers JSON cannot carry arrive as {"$float": "NaN" | "Infinity" | "-Infinity"}.
const revive = (key, value) => (value !== null && typeof value === "object" && "$float" in value
  ? Number(value.$float) : value);
const cases = JSON.parse(readFileSync(0, "utf8"), revive);
const outcomes = cases.map(({ names, events, interruption, points, exerciseBug }) => {
  const builder = new ReportBuilder("ex", names, points);
  let rejected = null;
  for (const [index, event] of events.entries()) {
    try {
      builder.add(event);
    } catch (err) {
      if (!(err instanceof InvalidEvent) || !err.message) throw err;
      rejected = index;
      break;
    }
  }
  return { rejected, report: builder.finish(interruption, exerciseBug) };
});
process.stdout.write(JSON.stringify(outcomes));
"""

INTERRUPTIONS = [None, ["timeout", "Time limit exceeded: the tests did not finish within 2 s."],
                 ["error", "Your code crashed the Python runtime."],
                 ["error", "é" * (MESSAGE_LIMIT + 3) + "\ud800"]]  # cut and made valid Unicode in test messages


class TimesOutWhileLoading:
    """A learner whose code never finishes loading, as the offline grader reports it."""
    function = None

    def start(self, send_output):
        send_output("started loading\n")

    def load(self):
        return ("timeout", "Time limit exceeded while loading your code: it did not finish within 2 s.")

    def out_of_time(self):
        return None

    def stop(self):
        pass


def recorded_runs():
    """Event streams of real engine runs (in this interpreter) plus a few made by hand."""
    spec = GradingSpec("ex", "sinusoidal_pe", (EXERCISE / "tests.py").read_text())
    prints_in_tests = SOLUTION.replace("    return pe", (
        "    print(T, C, 'é😀', '\\udc80')\n"          # a lone surrogate, replaced
        "    if T == 8:\n        print('x' * 40_000)\n"  # the third test's output is truncated
        "    return pe"))
    sources = [SOLUTION, EXTRA_SUBMISSIONS["syntax error"], EXTRA_SUBMISSIONS["exception at import"],
               EXTRA_SUBMISSIONS["missing function"], EXTRA_SUBMISSIONS["NaN"], EXTRA_SUBMISSIONS["prints"],
               prints_in_tests, SOLUTION + "\nprint('x' * 40_000)\n",
               (EXERCISE / "mutants" / "swapped_sin_cos.py").read_text()]
    runs = []
    for source in sources:
        events = []
        grade(spec, source, events.append)
        runs.append(events)
    events = []
    run_tests(spec, TimesOutWhileLoading(), events.append)
    runs.append(events)
    # A test whose own code raises: the exercise's bug, left out of the score.
    broken = GradingSpec("ex", "sinusoidal_pe", spec.tests_source + BROKEN_TEST)
    events = []
    grade(broken, SOLUTION, events.append)
    last = len(TEST_NAMES) - 1  # the broken test takes the place of the last one: the builders know six names
    runs.append([{**event, "index": last} if event.get("index") == last + 1 else event for event in events
                 if event.get("index") != last and event.get("test") != last and event["event"] != "start"])
    assert any("test_code_error" in event for event in runs[-1])
    assert any(event["event"] == "loaded" and event.get("status") == "timeout" for events in runs for event in events)
    assert any(event["event"] == "stdout" and event["test"] == 2 for events in runs for event in events)

    start = {"event": "start", "exercise": "ex", "tests": TEST_NAMES}
    runs.append([start, {"event": "stdout", "text": "😀" * (STDOUT_LIMIT + 5), "test": None},
                 {"event": "loaded", "error": None}, {"event": "test_start", "index": 0},
                 {"event": "stdout", "text": "a" * (STDOUT_LIMIT + 1), "test": 0},
                 {"event": "test", "index": 0, "status": "failed", "message": "é" * (MESSAGE_LIMIT + 1),
                  "duration_ms": 1.5}])
    runs.append([start, {"event": "stdout", "text": "a" * (STDOUT_LIMIT - 2)}, {"event": "stdout", "text": "é😀bc"},
                 {"event": "stdout", "text": "more"}, {"event": "loaded", "error": None},
                 {"event": "test_start", "index": 0},
                 {"event": "test", "index": 0, "status": "failed", "message": "m\ud800", "duration_ms": 2.0004}])
    # Only the offline checker sends "aborted" (its hidden tests or the grader failed).
    runs.append([start, {"event": "loaded", "error": None}, {"event": "test_start", "index": 0},
                 {"event": "test", "index": 0, "status": "passed", "message": "", "duration_ms": 0},
                 {"event": "test_start", "index": 1},
                 {"event": "aborted", "error": "The grader failed (KeyError: 'x')."}])
    # The tests' own time used up (offline): the test stopped and those after it are not graded.
    runs.append([start, {"event": "loaded", "error": None}, {"event": "test_start", "index": 0},
                 {"event": "test", "index": 0, "status": "passed", "message": "", "duration_ms": 1},
                 {"event": "test_start", "index": 1},
                 {"event": "test", "index": 1, "status": "error", "message": "Not graded: stopped", "duration_ms": 9,
                  "test_code_error": {"line": 7, "kind": "stopped", "traceback": "tests.py:7"}},
                 {"event": "test_start", "index": 2},
                 {"event": "test", "index": 2, "status": "error", "message": "Not graded: not run", "duration_ms": 0,
                  "test_code_error": {"line": None, "kind": "not run", "traceback": "not run"}}])
    return runs


# Each is rejected by both builders, except those marked valid.  JSON cannot tell an index 1.0 from 1,
# so the JavaScript builder cannot reject what report.py does; no such event reaches the page.
MALFORMED_EVENTS = [
    None, [], "stdout", 3, {}, {"event": None}, {"event": 5}, {"event": "bogus"}, {"event": "Stdout"},
    {"event": "stdout", "text": None}, {"event": "stdout", "text": 5}, {"event": "stdout", "text": ["a"]},
    {"event": "stdout", "text": "a", "test": -1}, {"event": "stdout", "text": "a", "test": 6},
    {"event": "stdout", "text": "a", "test": "0"}, {"event": "stdout", "text": "a", "test": True},
    {"event": "stdout", "text": "a", "test": 0.5},
    {"event": "loaded", "error": 5}, {"event": "loaded", "error": "x", "status": "crashed"},
    {"event": "loaded", "error": "x", "status": None}, {"event": "loaded", "error": False},
    {"event": "test_start"}, {"event": "test_start", "index": None}, {"event": "test_start", "index": 6},
    {"event": "test_start", "index": -1}, {"event": "test_start", "index": "1"},
    {"event": "test_start", "index": False},
    {"event": "test", "index": 1, "status": "skipped", "message": "", "duration_ms": 1},
    {"event": "test", "index": 1, "message": "", "duration_ms": 1},
    {"event": "test", "index": 1, "status": "passed", "message": ""},
    {"event": "test", "index": 1, "status": "passed", "message": "", "duration_ms": None},
    {"event": "test", "index": 1, "status": "passed", "message": "", "duration_ms": -1},
    {"event": "test", "index": 1, "status": "passed", "message": "", "duration_ms": float("nan")},
    {"event": "test", "index": 1, "status": "passed", "message": "", "duration_ms": float("inf")},
    {"event": "test", "index": 1, "status": "passed", "message": "", "duration_ms": "1"},
    {"event": "test", "index": 1, "status": "passed", "message": "", "duration_ms": True},
    {"event": "test", "index": 1, "status": "failed", "message": None, "duration_ms": 1},
    {"event": "test", "index": 1, "status": "failed", "message": {"a": 1}, "duration_ms": 1},
    {"event": "test", "index": 6, "status": "passed", "message": "", "duration_ms": 1},
    {"event": "aborted", "error": None}, {"event": "aborted", "error": 7},
    *({"event": "test", "index": 1, "status": status, "message": "m", "duration_ms": 1, "test_code_error": error}
      for status, error in [("passed", {"line": 1, "kind": "raised", "traceback": "t"}),
                            ("failed", {"line": 1, "kind": "raised", "traceback": "t"}),
                            ("error", {"line": 1, "kind": "raised"}), ("error", {"line": "1", "kind": "raised",
                                                                                  "traceback": "t"}),
                            ("error", {"line": 1, "kind": "bug", "traceback": "t"}), ("error", "raised"),
                            ("error", {"line": 1, "kind": "raised", "traceback": 5}),
                            ("error", {"line": 1, "kind": "raised", "traceback": "t", "more": 1})]),
    *({"event": "test", "index": 1, "status": "failed", "message": "m", "duration_ms": 1, "comparison": comparison}
      for comparison in [None, [], {"got": None}, {"got": None, "expected": None, "x": None},
                         {"got": {"shape": [2], "step": [1]}, "expected": None},
                         {"got": {"shape": [2], "step": [1], "values": [1, "NaN"]}, "expected": None},
                         {"got": {"shape": [2], "step": [1], "values": [1]}, "expected": None},
                         {"got": {"shape": [2], "step": [1], "values": [1, True]}, "expected": None},
                         {"got": {"shape": [2], "step": [1], "values": [1, float("nan")]}, "expected": None},
                         {"got": {"shape": [1, 2], "step": [1, 1], "values": [1, 2]}, "expected": None},
                         {"got": {"shape": [1, 2], "step": [1, 1], "values": [[1]]}, "expected": None},
                         {"got": {"shape": [0, 2], "step": [1, 1], "values": []}, "expected": None},
                         {"got": {"shape": [2, 2, 2], "step": [1, 1, 1], "values": []}, "expected": None},
                         {"got": {"shape": [65, 1], "step": [1, 1], "values": [[0]] * 65}, "expected": None},
                         {"got": {"shape": [2], "step": [1.5], "values": [1, 2]}, "expected": None}]),
]
VALID_ODDITIES = [
    {"event": "stdout"}, {"event": "stdout", "text": "a", "test": None},
    {"event": "loaded", "error": None, "status": "bogus"}, {"event": "loaded", "error": "", "status": "timeout"},
    {"event": "loaded", "error": "x"}, {"event": "test", "index": 1, "status": "passed", "duration_ms": 0},
    {"event": "aborted"}, {"event": "done", "extra": [1]}, {"event": "start", "tests": None},
    {"event": "test", "index": 1, "status": "failed", "message": "m", "duration_ms": 1,
     "comparison": {"got": {"shape": [3], "step": [2], "values": [1.5, "-inf"]}, "expected": None}},
    {"event": "test", "index": 1, "status": "failed", "message": "m", "duration_ms": 1,
     "comparison": {"got": {"shape": [130, 2], "step": [3, 1], "values": [[0, "nan"]] * 44},
                    "expected": {"shape": [1], "step": [1], "values": ["inf"]}}},
]


def with_odd_events():
    """A real run with each malformed or odd event slipped in at a few points."""
    spec = GradingSpec("ex", "sinusoidal_pe", (EXERCISE / "tests.py").read_text())
    events = []
    grade(spec, SOLUTION, events.append)
    loaded = next(i for i, event in enumerate(events) if event["event"] == "loaded")
    second_test = next(i for i, event in enumerate(events) if event == {"event": "test_start", "index": 1})
    for odd in MALFORMED_EVENTS + VALID_ODDITIES:
        for at in (1, loaded + 1, second_test + 1, len(events)):
            yield events[:at] + [odd] + events[at:]


def json_safe(value):
    """`value` with the floats JSON cannot carry spelled as the driver's {"$float": ...}."""
    if isinstance(value, float) and not math.isfinite(value):
        return {"$float": "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")}
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_safe(item) for item in value]
    return value


def build_with_report_py(events, interruption, points, exercise_bug):
    builder = ReportBuilder("ex", TEST_NAMES, points)
    rejected = None
    for index, event in enumerate(events):
        try:
            builder.add(event)
        except InvalidEvent:
            rejected = index
            break
    return {"rejected": rejected,
            "report": builder.finish(tuple(interruption) if interruption else None, exercise_bug)}


def without_durations(report):
    return {**report, "tests": [{k: v for k, v in t.items() if k != "duration_ms"} for t in report["tests"]]}


def test_report_js_matches_report_py(tmp_path):
    node = nodejs.node_command()
    shutil.copyfile(ROOT / "site" / "js" / "report.js", tmp_path / "report.mjs")
    (tmp_path / "driver.mjs").write_text(NODE_DRIVER)
    streams = [events[:cut] for events in recorded_runs()
               for cut in range(len(events) + 1)]  # every point where the run could have been stopped
    streams += list(with_odd_events())
    # Points on every other case: floats whose sum depends on the order of the additions, a name no test has.
    points = {TEST_NAMES[0]: 3, TEST_NAMES[2]: 0.1, TEST_NAMES[3]: 0.2, TEST_NAMES[4]: 0.3, "constructor": 9}
    cases = [{"names": TEST_NAMES, "events": events, "interruption": interruption,
              "points": points if number % 2 else None, "exerciseBug": number % 3 == 0}
             for number, (events, interruption) in enumerate((e, i) for e in streams for i in INTERRUPTIONS)]
    expected = [build_with_report_py(case["events"], case["interruption"], case["points"], case["exerciseBug"])
                for case in cases]
    result = subprocess.run([node, "driver.mjs"], cwd=tmp_path, input=json.dumps(json_safe(cases)),
                            capture_output=True, text=True, check=True)
    got = json.loads(result.stdout)
    assert len(got) == len(expected)
    rejections = {json.dumps(json_safe(odd)): 0 for odd in MALFORMED_EVENTS}
    for case, js, py in zip(cases, got, expected):
        assert js["rejected"] == py["rejected"], case
        assert without_durations(js["report"]) == without_durations(py["report"]), case
        for js_test, py_test in zip(js["report"]["tests"], py["report"]["tests"]):
            assert js_test["duration_ms"] == pytest.approx(py_test["duration_ms"], abs=1e-3)
        if py["rejected"] is not None:
            key = json.dumps(json_safe(case["events"][py["rejected"]]))
            assert key in rejections, f"a valid event was rejected: {key}"
            rejections[key] += 1
    assert all(rejections.values()), f"malformed events accepted: {[k for k, n in rejections.items() if not n]}"

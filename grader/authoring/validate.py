"""Check that an exercise is ready to publish (`python -m grader validate`, and the site build).

`validate_exercise(exercise)` runs every check on one exercise and returns a
`ValidationResult`: `.problems` (one string per problem, naming the file) and
`.lines` (the human report, one ✓/✗ line per check).  The checks:

- the folder matches the format (the loader's own checks: files, metadata, syntax), the steps it
  uses exist, earlier in its track (grader/track.py), and no exercise beside it has its step;
- nothing `grader new` left for the author to write is still there (TODO(author), grader/authoring/placeholders.py);
- the statement, the hints and how_it_works.md render (Markdown and LaTeX, as on the site), hold no stray `$`, every image
  and relative link of the statement is found, and its runnable examples show what the reference gives
  (grader/authoring/statement_checks.py, grader/authoring/statement_examples.py);
- the hidden tests load as `check` loads them, each has a docstring, their names (and function names)
  are unique, and they import only numpy, the standard library and grader.core;
  (these rules, which grade nothing, are grader/exercise_rules.py's: `check` and the build apply them too)
- the reference passes every test, the starter does not pass them all;
- every mutant starts with a comment saying what mistake it models, loads and fails at least one test,
  the first test that catches it saying the diagnosis it declares (`# expect:`, grader/authoring/mutant_diagnosis.py);
  a surviving one is shown with an input on which it differs from the reference (grader/authoring/witness.py);
- every accepted variant (accepted/*.py, grader/authoring/accepted.py) passes every test;
- every test is deterministic: reference and mutants graded twice, each grading from freshly seeded global
  generators (grader/checker/as_the_page.py), agree test by test, verdicts and failure messages alike;
- the tests' own code (not the learner's calls) raises nothing and runs within its time
  (grader/authoring/tests_own_code.py): a test that fails in its own code is the exercise's bug, never a catch;
- the reference's tests fit in a time budget (BUDGET_FRACTION of time_limit), learner and test code apart;
- with a Pyodide distribution: reference and mutants get the same verdicts in
  real Pyodide (under Node) as in CPython.
The report ends with where the time went (grader/authoring/validate_timing.py).

Every grading runs like `python -m grader check` (a checker process, the
learner's code in the sandbox, the references of the steps it uses in scope),
so a mutant that loops ends as a timeout instead of hanging the validation; and as the page grades: the
hidden tests cannot read the exercise's files, nor any exercise's beside it (see exercise_rules.hidden_folders).
"""

import ast
import dataclasses
import os
import re
import time
from pathlib import Path

from grader.exercise import HOW_IT_WORKS_FILE, Exercise, ExerciseError, load_exercise
from grader.exercise_rules import hidden_folders, mutant_problems, step_problems, tests_problems
from grader.nondeterminism import nondeterministic_calls
from grader.authoring.reference_runner import run_reference
from grader.authoring.statement_checks import statement_problems
from grader.authoring.statement_examples import example_problems, find_examples
from grader.authoring.validate_timing import PhaseTimer, time_lines
from grader.checker.supervisor import Grader, Limits, shared_sandbox
from grader.authoring.accepted import LABEL_PREFIX, accepted_jobs, check_accepted
from grader.authoring.placeholders import PLACEHOLDER, placeholder_problems
from grader.authoring.mutant_diagnosis import declared_diagnosis, diagnosis_problem
from grader.authoring.tests_own_code import TEST_CODE_FRACTION, catches, own_code_problems, stopped_on, time_split
from grader.track import reference_steps
from grader.authoring.witness import find_difference
from markup.markdown import MarkdownError, prerender, render_markdown
from toolchain.node import NodeError, ensure_node_modules, node_command
from grader.pyodide.dist import DistError, ensure_dist
from grader.pyodide.run import PyodideError, grade_in_pyodide as pyodide_reports

BUDGET_FRACTION = 0.25  # of time_limit: leaves room for a slower browser and a slower learner solution
PROJECT_ROOT = Path(__file__).resolve().parents[2]
NODE_STARTUP_SECONDS = 120
OK, FAIL = "✓", "✗"
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")  # object addresses in messages differ between processes
FORMAT_CHECK = "format: files, metadata and Python syntax"


@dataclasses.dataclass
class ValidationResult:
    exercise: str                                 # the exercise id (the folder name if it did not load)
    problems: list = dataclasses.field(default_factory=list)
    lines: list = dataclasses.field(default_factory=list)

    @property
    def ok(self):
        return not self.problems

    def check(self, description, problems=(), details=()):
        """Record one check: ✓ when `problems` is empty, else ✗ and every problem."""
        problems = list(problems)
        self.lines.append(f"  {FAIL if problems else OK} {description}")
        # A problem may span lines (a traceback): each is indented under it.
        self.lines.extend(f"      {line}" for text in [*details, *problems]
                          for line in text.replace("\n", "\n  ").splitlines())
        self.problems.extend(problems)


@dataclasses.dataclass(frozen=True)
class _Test:
    name: str
    status: str
    message: str
    duration_ms: float
    learner_ms: float  # of duration_ms, in the learner's calls (0 when the report does not say)
    test_code_error: dict | None  # the test's own code raised or ran out of time (core/report.py)


@dataclasses.dataclass(frozen=True)
class _Run:
    """The verdicts of one grading: per-test results in order, and what the report said."""
    error: str | None
    tests: list  # [_Test]

    @classmethod
    def of(cls, report):
        return cls(report["error"], [_Test(t["name"], t["status"], t["message"], t["duration_ms"],
                                           t.get("learner_ms", 0.0), t.get("test_code_error"))
                                     for t in report["tests"]])

    @property
    def statuses(self):
        return [test.status for test in self.tests]

    @property
    def passed(self):
        return self.error is None and all(status == "passed" for status in self.statuses)

    @property
    def seconds(self):
        return sum(test.duration_ms for test in self.tests) / 1000


def validate_exercise(exercise, *, pyodide_dist=None, sandbox_mode="auto"):
    """Validate an `Exercise` (or the folder of one); also in Pyodide when `pyodide_dist` is given.

    Learner code (reference, starter, mutants) runs in the sandbox `sandbox_mode` asks for (see sandbox.py).
    """
    started = time.perf_counter()
    try:
        if not isinstance(exercise, Exercise):
            exercise = load_exercise(exercise)
        earlier = reference_steps(exercise)
    except ExerciseError as exc:
        name = exercise.id if isinstance(exercise, Exercise) else Path(exercise).name
        result = ValidationResult(name, lines=[name])
        result.check(FORMAT_CHECK, [str(error) for error in exc.errors])
        return _finish(result, started)
    result = ValidationResult(exercise.id, lines=[f"{exercise.id} - {exercise.title}"])
    result.check(FORMAT_CHECK, step_problems(exercise))
    placeholders = placeholder_problems(exercise)
    if placeholders:  # only then: a written exercise needs no line about it
        result.check(f"no placeholder of `grader new` left ({PLACEHOLDER})", placeholders)
    timer = PhaseTimer()
    with timer("rendering"):
        _check_markdown(exercise, result)
    tests = _check_tests(exercise, result)
    runs, not_graded, test_lines = {}, None, {}
    if tests is not None:
        for test in tests:  # test name -> the line of its def (the first, should two share a name)
            test_lines.setdefault(test.name, test.function.__code__.co_firstlineno)
        runs, not_graded = _grade_everything(exercise, [test.name for test in tests], earlier, sandbox_mode, timer)
        result.check("tests' own code raises nothing and runs within its time", own_code_problems(exercise, runs))
        _check_reference(exercise, runs, result)
        if not_graded:
            if len(runs["reference"]) == 2:
                _check_speed(exercise, runs, test_lines, result)
            result.lines.append(f"  - starter and mutants not graded: {not_graded}")
        else:
            _check_starter(exercise, runs, result)
            _check_mutants(exercise, runs, earlier, result)
            check_accepted(exercise, runs, result)
            _check_determinism(exercise, runs, result)
            _check_speed(exercise, runs, test_lines, result)
    # After the gradings, whose determinism check a test that leaves state behind would otherwise fool.
    examples, marking = find_examples(exercise.statement)
    with timer("statement's examples on the reference"):
        reference_run = run_reference(exercise, examples, earlier)
    _check_statement(exercise, examples, marking, reference_run, result)
    if tests is not None and not_graded is None and pyodide_dist is not None:
        with timer("Pyodide"):
            _check_pyodide(exercise, runs, earlier, pyodide_dist, result)
    result.lines.extend(time_lines(timer, runs, test_lines))
    return _finish(result, started)


def _finish(result, started):
    verdict = "valid" if result.ok else f"NOT VALID ({len(result.problems)} problem(s))"
    result.lines.append(f"  {verdict} in {time.perf_counter() - started:.1f} s")
    return result


def _problem(path, message, line=None):
    """'path[:line]: message', the path shown as the loader shows it."""
    return str(ExerciseError(path, message, line))


def _check_markdown(exercise, result):
    problems = []
    prerender([exercise.statement, *exercise.hints, *filter(None, [exercise.how_it_works])])
    try:
        render_markdown(exercise.statement)
    except MarkdownError as exc:
        problems.append(_problem(exercise.path / "statement.md", exc.message, exc.line))
    for number, hint in enumerate(exercise.hints, start=1):
        try:
            render_markdown(hint)
        except MarkdownError as exc:
            problems.append(_problem(exercise.path / "exercise.toml", f"hint {number} does not render: {exc.message}"))
    if exercise.how_it_works is not None:
        try:
            render_markdown(exercise.how_it_works)
        except MarkdownError as exc:
            problems.append(_problem(exercise.path / HOW_IT_WORKS_FILE, exc.message, exc.line))
    hints = f"{len(exercise.hints)} hint(s)" + (f" and {HOW_IT_WORKS_FILE}" if exercise.how_it_works is not None else "")
    result.check(f"statement.md and {hints} render", problems)


def _check_statement(exercise, examples, marking, reference_run, result):
    path = exercise.path / "statement.md"
    problems = [_problem(path, message, line) for line, message in marking]
    problems += example_problems(exercise, examples, reference_run)
    checked = sum(len(example.outputs) for example in examples)
    shown = f"{checked} example output(s) checked against the reference" if checked else "no runnable examples"
    result.check(f"statement.md: {shown}; no stray $; images and links found",
                 statement_problems(exercise) + problems)


def _check_tests(exercise, result):
    """Check the hidden tests load, are documented and uniquely named; return them (HiddenTest) or None."""
    tests, problems = tests_problems(exercise)
    if tests is None:
        result.check("hidden tests load", problems)
        return None
    result.check(f"{len(tests)} hidden tests load, each with a docstring, names unique, imports "
                 f"the browser has", problems)
    return tests


def _grade_everything(exercise, test_names, earlier, sandbox_mode, timer):
    """({label: [_Run, ...]}, why the rest was not graded or None): reference and mutants graded twice
    (determinism), the starter once.  Only the reference when its tests are too slow: once when their own code ran
    out of time, twice when they take more than the speed budget (it would be the same on each of the others)."""
    limits = Limits(time_limit=exercise.time_limit, test_limit=exercise.test_time_limit,
                    test_code_limit=TEST_CODE_FRACTION * exercise.time_limit)
    grader = Grader(exercise.grading_spec(), limits, shared_sandbox(sandbox_mode), test_names, earlier,
                    authoring=True, hidden=hidden_folders(exercise))
    # The reference runs alone, one run at a time, since its timing feeds the speed check.
    with timer("reference graded twice"):
        runs = {"reference": [_Run.of(grader.grade(exercise.solution))]}
        if stopped_on(runs["reference"][0]):
            return runs, "the tests' own code ran out of time on the reference"
        runs["reference"].append(_Run.of(grader.grade(exercise.solution)))
    if min(run.seconds for run in runs["reference"]) > BUDGET_FRACTION * exercise.time_limit:
        return runs, "the reference's tests are too slow"
    jobs = [("starter", exercise.starter)] + [(name, source) for name, source in exercise.mutants.items()
                                              for _ in range(2)] + accepted_jobs(exercise) * 2
    accepted = f" and {len(exercise.accepted)} accepted variant(s)" if exercise.accepted else ""
    with timer(f"starter once and {len(exercise.mutants)} mutant(s){accepted} twice"):
        for label, report in grader.grade_all(jobs, os.cpu_count() or 1):
            runs.setdefault(label, []).append(_Run.of(report))
    return runs, None


def _check_reference(exercise, runs, result):
    run = runs["reference"][0]
    path = exercise.path / "solution.py"
    if run.error is not None:
        problems = [_problem(path, f"the reference does not load: {run.error}")]
    else:
        # A test that failed in its own code is the tests' problem, named by own_code_problems.
        problems = [_problem(path, f"the reference fails test {test.name!r} ({test.status}): {test.message}")
                    for test in catches(run)]
    passed = sum(status == "passed" for status in run.statuses)
    unchecked = sum(test.test_code_error is not None for test in run.tests)
    note = f" ({unchecked} could not check it: their own code failed)" if unchecked else ""
    result.check(f"reference passes {passed}/{len(run.tests)} tests{note}", problems)


def _check_starter(exercise, runs, result):
    run = runs["starter"][0]
    problems = []
    if run.passed:
        problems.append(_problem(exercise.path / "starter.py", "the starter passes every hidden test: "
                                                               "learners would start from a solved exercise"))
    passed = sum(status == "passed" for status in run.statuses)
    result.check(f"starter does not pass: {passed}/{len(run.tests)} tests pass on it", problems)


def _check_mutants(exercise, runs, earlier, result):
    problems, details = mutant_problems(exercise), []
    if not exercise.mutants:
        result.check("mutants: none (add known-wrong solutions under mutants/)", problems)
        return
    caught = 0
    for name in exercise.mutants:
        run = runs[name][0]
        path = exercise.path / "mutants" / name
        if run.error is not None:
            problems.append(_problem(path, f"the mutant does not load ({run.error}); a mutant should load "
                                           f"and be caught by a test"))
        elif run.passed:
            difference = find_difference(exercise, exercise.mutants[name], earlier,
                                         timeout=2 * exercise.time_limit + 10)
            problems.append(_problem(path, f"mutant survived: every hidden test passes on it (if it is a mistake, "
                                           f"add a test that catches it); {difference}"))
        elif not catches(run):
            problems.append(_problem(path, "mutant not caught: the only tests that did not pass on it failed "
                                           "in their own code (see above), not because of the mutant"))
        else:
            caught += 1
            details.append(f"{name}: caught by {_catchers(run)}")
            declared = declared_diagnosis(exercise.mutants[name])
            problem = declared and diagnosis_problem(declared[1], [(test.name, test.status, test.message)
                                                                   for test in catches(run)])
            if problem:
                problems.append(_problem(path, problem, declared[0]))
    result.check(f"mutants: {caught}/{len(exercise.mutants)} caught", problems, details)


def _catchers(run):
    """"'A' (failed) and 2 other test(s)": the first test that the mutant does not pass, and how many more."""
    caught = catches(run)
    more = f" and {len(caught) - 1} other test(s)" if len(caught) > 1 else ""
    return f"{caught[0].name!r} ({caught[0].status}){more}"


def _check_determinism(exercise, runs, result):
    problems = []
    flaky = set()
    # A solution that reads the clock or draws unseeded numbers may say other things each time: its messages are
    # its own doing, not the tests' (its verdicts still must not change).
    draws_its_own = {label: bool(nondeterministic_calls(ast.parse(_source_of(exercise, label)))) for label in runs}
    for label, pair in runs.items():
        if len(pair) != 2:
            continue
        first, second = pair
        if first.error != second.error:
            problems.append(_problem(_path_of(exercise, label), f"loads differently when graded twice: "
                                                                f"{first.error!r}, then {second.error!r}"))
        for test1, test2 in zip(first.tests, second.tests):
            name, status1, status2 = test1.name, test1.status, test2.status
            if name in flaky:
                continue
            if status1 != status2:
                flaky.add(name)
                problems.append(_problem(exercise.path / "tests.py", f"test {name!r} is flaky: on "
                                         f"{_describe(label)} it {status1}, then {status2} when graded again "
                                         f"(seed every random generator; do not depend on time or leftover state)"))
            elif (status1 == "failed" and not draws_its_own[label]
                  and _ADDRESS.sub("0x", test1.message) != _ADDRESS.sub("0x", test2.message)):
                flaky.add(name)
                problems.append(_problem(exercise.path / "tests.py", f"test {name!r} is flaky: on "
                                         f"{_describe(label)} its message changes when graded again, from "
                                         f"{_clip(test1.message)!r} to {_clip(test2.message)!r} (seed every random "
                                         f"generator; do not depend on time or leftover state)"))
    graded = len([pair for pair in runs.values() if len(pair) == 2])
    result.check(f"deterministic: {graded} solutions graded twice from different process states, same verdicts "
                 f"and messages", problems)


def _clip(message, length=120):
    return message if len(message) <= length else message[:length - 3] + "..."



def _check_speed(exercise, runs, test_lines, result):
    run = min(runs["reference"], key=lambda r: r.seconds)  # the faster run: less noise from the machine
    budget = BUDGET_FRACTION * exercise.time_limit
    slowest = max(run.tests, key=lambda t: t.duration_ms)
    slowest_figure = f"{slowest.name!r} {slowest.duration_ms / 1000:.2f} s ({time_split([slowest])})"
    figure = (f"reference tests take {run.seconds:.2f} s ({time_split(run.tests)}), budget {budget:.2f} s "
              f"({BUDGET_FRACTION:.0%} of time_limit {exercise.time_limit:g} s); "
              f"slowest: {slowest.name!r} {slowest.duration_ms / 1000:.2f} s")
    problems = []
    if run.seconds > budget:
        problems.append(_problem(exercise.path / "tests.py", f"too slow: the reference's tests take "
                                 f"{run.seconds:.2f} s ({time_split(run.tests)}), over the budget of {budget:.2f} s; "
                                 f"the slowest is {slowest_figure}: use smaller inputs, or compute expected "
                                 f"values more cheaply when the test code takes the time",
                                 test_lines.get(slowest.name)))
    result.check(f"fast: {figure}", problems)


def _check_pyodide(exercise, runs, earlier, dist, result):
    # A mutant that times out in CPython would hang Pyodide, which cannot be interrupted from outside.
    skipped = [name for name in exercise.mutants if any(s == "timeout" for s in runs[name][0].statuses)]
    sources = {"reference": exercise.solution}
    sources.update((name, source) for name, source in exercise.mutants.items() if name not in skipped)
    sources.update(accepted_jobs(exercise))
    started = time.perf_counter()
    try:
        pyodide_runs = grade_in_pyodide(exercise, sources, dist, earlier)
    except PyodideError as exc:
        result.check("Pyodide: grading under Node", [_problem(exercise.path, f"grading in Pyodide failed: {exc}")])
        return
    wall = time.perf_counter() - started
    problems = []
    for label, pyodide_run in pyodide_runs.items():
        cpython_run = runs[label][0]
        if (cpython_run.error is None) != (pyodide_run.error is None):
            problems.append(_problem(_path_of(exercise, label), f"loads in one interpreter only: CPython "
                                     f"{cpython_run.error!r}, Pyodide {pyodide_run.error!r}"))
        for test1, test2 in zip(cpython_run.tests, pyodide_run.tests):
            name, status1, status2, message = test1.name, test1.status, test2.status, test2.message
            if status1 != status2:
                problems.append(_problem(_path_of(exercise, label), f"test {name!r} is {status1} in CPython but "
                                         f"{status2} in Pyodide" + (f": {message}" if message else "")))
    reference = pyodide_runs["reference"]
    reference_time = f"{reference.seconds:.2f} s ({time_split(reference.tests)})"
    if reference.seconds > exercise.time_limit:
        problems.append(_problem(exercise.path / "tests.py", f"the reference's tests take {reference_time} in "
                                 f"Pyodide, over time_limit {exercise.time_limit:g} s: a correct solution would "
                                 f"time out in the browser"))
    details = [f"not run in Pyodide (times out in CPython): {name}" for name in skipped]
    mutants = f"{len(sources) - 1 - len(exercise.accepted)} mutant(s)"
    graded = (f"reference, {mutants} and {len(exercise.accepted)} accepted variant(s)" if exercise.accepted
              else f"reference and {mutants}")
    result.check(f"Pyodide: {graded} get the same verdicts as in CPython "
                 f"(reference tests {reference_time} in Pyodide; {wall:.1f} s with Node startup)",
                 problems, details)


def pyodide_dist():
    """The verified Pyodide folder to pass as `validate_exercise(..., pyodide_dist=...)`."""
    try:
        node_command()
        ensure_node_modules(PROJECT_ROOT)  # as the build does: `npm ci` when node_modules is missing or stale
    except NodeError as exc:
        raise PyodideError(f"grading in Pyodide needs Node.js and the npm packages: {exc}") from None
    try:
        return ensure_dist(project_root=PROJECT_ROOT)
    except DistError as exc:
        raise PyodideError(f"cannot assemble the Pyodide distribution: {exc}") from None


def grade_in_pyodide(exercise, sources, dist, earlier=()):
    """{label: _Run} for each source, all graded in one Node process running Pyodide, the `earlier`
    steps (EarlierStep) in scope."""
    timeout = NODE_STARTUP_SECONDS + exercise.time_limit * len(sources)
    [reports] = pyodide_reports(dist, [{"spec": exercise.grading_spec(), "sources": sources, "earlier": earlier,
                                        "authoring": True}], timeout)
    return {label: _Run.of(report) for label, report in reports.items()}


def _source_of(exercise, label):
    if label in ("reference", "starter"):
        return exercise.solution if label == "reference" else exercise.starter
    if label.startswith(LABEL_PREFIX):
        return exercise.accepted[label[len(LABEL_PREFIX):]]
    return exercise.mutants[label]


def _path_of(exercise, label):
    if label == "reference":
        return exercise.path / "solution.py"
    return exercise.path / (label if label.startswith(LABEL_PREFIX) else f"mutants/{label}")


def _describe(label):
    if label == "reference":
        return "the reference"
    return f"accepted variant {label[len(LABEL_PREFIX):]}" if label.startswith(LABEL_PREFIX) else f"mutant {label}"

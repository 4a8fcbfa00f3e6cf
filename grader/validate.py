"""Check that an exercise is ready to publish (`python -m grader validate`, and the site build).

`validate_exercise(exercise)` runs every check on one exercise and returns a
`ValidationResult`: `.problems` (one string per problem, naming the file) and
`.lines` (the human report, one ✓/✗ line per check).  The checks:

- the folder matches the format (the loader's own checks: files, metadata, syntax), and the steps it
  uses exist, earlier in its track (grader/track.py);
- the statement and the hints render (Markdown and LaTeX, as on the site);
- the hidden tests load, each has a docstring, their names (and function names) are unique,
  and they import only numpy, the standard library and grader.core;
- the reference passes every test, the starter does not pass them all;
- every mutant starts with a comment saying what mistake it models, loads and fails at least one test,
  the first test that catches it saying the diagnosis it declares (`# expect:`, grader/mutant_diagnosis.py);
  a surviving one is shown with an input on which it differs from the reference (grader/witness.py);
- every accepted variant (accepted/*.py, grader/accepted.py) passes every test;
- every test is deterministic: reference and mutants graded twice agree test by test;
- the reference's tests fit in a time budget (BUDGET_FRACTION of time_limit);
- with a Pyodide distribution: reference and mutants get the same verdicts in
  real Pyodide (under Node) as in CPython.

Every grading runs like `python -m grader check` (a checker process, the
learner's code in the sandbox, the references of the steps it uses in scope),
so a mutant that loops ends as a timeout instead of hanging the validation.
"""

import ast
import dataclasses
import inspect
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from grader.core.engine import TestsError, load_tests
from grader.exercise import Exercise, ExerciseError, load_exercise
from grader.checker.supervisor import Grader, Limits, shared_sandbox
from grader.accepted import LABEL_PREFIX, accepted_jobs, check_accepted
from grader.mutant_diagnosis import declared_diagnosis, diagnosis_problem
from grader.track import reference_steps
from grader.witness import find_difference
from markup.markdown import MarkdownError, prerender, render_markdown
from grader.node import NodeError, node_command
from grader.pyodide.dist import DistError, ensure_dist

BUDGET_FRACTION = 0.25  # of time_limit: leaves room for a slower browser and a slower learner solution
PROJECT_ROOT = Path(__file__).resolve().parent.parent
NODE_RUNNER = Path(__file__).resolve().parent / "pyodide" / "node_runner.mjs"
NODE_STARTUP_SECONDS = 120
OK, FAIL = "✓", "✗"
FORMAT_CHECK = "format: files, metadata and Python syntax"
MUTANT_HEADER = re.compile(r"#[ \t]*\S")  # the first line: a comment with some text in it


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
        self.lines.extend(f"      {line}" for line in [*details, *problems])
        self.problems.extend(problems)


@dataclasses.dataclass(frozen=True)
class _Run:
    """The verdicts of one grading: per-test statuses in order, and what the report said."""
    error: str | None
    tests: list  # [(name, status, message, duration_ms)]

    @classmethod
    def of(cls, report):
        return cls(report["error"], [(t["name"], t["status"], t["message"], t["duration_ms"])
                                     for t in report["tests"]])

    @property
    def statuses(self):
        return [status for _, status, _, _ in self.tests]

    @property
    def passed(self):
        return self.error is None and all(status == "passed" for status in self.statuses)

    @property
    def seconds(self):
        return sum(duration for _, _, _, duration in self.tests) / 1000


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
        result.check(FORMAT_CHECK, [str(exc)])
        return _finish(result, started)
    result = ValidationResult(exercise.id, lines=[f"{exercise.id} - {exercise.title}"])
    result.check(FORMAT_CHECK)
    _check_markdown(exercise, result)
    test_names = _check_tests(exercise, result)
    if test_names is not None:
        runs = _grade_everything(exercise, test_names, earlier, sandbox_mode)
        _check_reference(exercise, runs, result)
        _check_starter(exercise, runs, result)
        _check_mutants(exercise, runs, earlier, result)
        check_accepted(exercise, runs, result, MUTANT_HEADER)
        _check_determinism(exercise, runs, result)
        _check_speed(exercise, runs, result)
        if pyodide_dist is not None:
            _check_pyodide(exercise, runs, earlier, pyodide_dist, result)
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
    prerender([exercise.statement, *exercise.hints])
    try:
        render_markdown(exercise.statement)
    except MarkdownError as exc:
        problems.append(_problem(exercise.path / "statement.md", exc.message, exc.line))
    for number, hint in enumerate(exercise.hints, start=1):
        try:
            render_markdown(hint)
        except MarkdownError as exc:
            problems.append(_problem(exercise.path / "exercise.toml", f"hint {number} does not render: {exc.message}"))
    hints = f"{len(exercise.hints)} hint(s)"
    result.check(f"statement.md and {hints} render", problems)


def _check_tests(exercise, result):
    """Check the hidden tests load, are documented and uniquely named; return their names or None."""
    tests_path = exercise.path / "tests.py"
    tree = ast.parse(exercise.tests_source)  # the loader compiled it already
    # Checked before loading: a module the browser lacks may well import fine here, or fail the import.
    problems = _foreign_imports(tree, tests_path) + _shadowed_tests(tree, tests_path)
    try:
        tests = load_tests(exercise.grading_spec())
    except TestsError as exc:
        result.check("hidden tests load", [*problems, str(exc)])
        return None
    except SystemExit:  # not an Exception, so load_tests lets it through
        result.check("hidden tests load", [*problems, _problem(tests_path, "the hidden tests call exit "
                                                                         "while being imported")])
        return None
    seen = {}
    for test in tests:
        line = test.function.__code__.co_firstlineno
        if not (inspect.getdoc(test.function) or "").strip():
            problems.append(_problem(tests_path, f"{test.function.__name__} has no docstring: its first line "
                                                 f"is the test name learners see", line))
        elif test.name in seen:
            problems.append(_problem(tests_path, f"{test.function.__name__} has the same name as "
                                                 f"{seen[test.name]}: {test.name!r}", line))
        seen.setdefault(test.name, test.function.__name__)
    try:
        exercise.check_points([test.name for test in tests])
    except ExerciseError as exc:
        problems.append(str(exc))
    result.check(f"{len(tests)} hidden tests load, each with a docstring, names unique, imports "
                 f"the browser has", problems)
    return [test.name for test in tests]


def _shadowed_tests(tree, tests_path):
    """A test function defined twice at module level: Python keeps the last, the first never runs."""
    problems, first_lines = [], {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
            if node.name in first_lines:
                problems.append(_problem(tests_path, f"{node.name} is defined twice (lines {first_lines[node.name]} "
                                         f"and {node.lineno}); the first definition is silently replaced", node.lineno))
            first_lines.setdefault(node.name, node.lineno)
    return problems


def _foreign_imports(tree, tests_path):
    """Imports of anything but numpy, the standard library and grader.core: the browser has nothing else."""
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = ["." * node.level + (node.module or "")]
        else:
            continue
        for module in modules:
            top = module.split(".")[0]
            if not (top == "numpy" or top in sys.stdlib_module_names
                    or module == "grader.core" or module.startswith("grader.core.")):
                problems.append(_problem(tests_path, f"imports {module}: hidden tests may import only numpy, the "
                                         f"standard library and grader.core (they run in the browser too, and "
                                         f"compute expected values without solution.py)", node.lineno))
    return problems


def _grade_everything(exercise, test_names, earlier, sandbox_mode):
    """{label: [_Run, ...]}: reference, mutants and accepted variants graded twice (determinism), the starter
    once."""
    limits = Limits(time_limit=exercise.time_limit, test_limit=exercise.test_time_limit)
    grader = Grader(exercise.grading_spec(), limits, shared_sandbox(sandbox_mode), test_names, earlier)
    # The reference runs alone, one run at a time, since its timing feeds the speed check.
    runs = {"reference": [_Run.of(grader.grade(exercise.solution)) for _ in range(2)]}
    jobs = [("starter", exercise.starter)] + [(name, source) for name, source in exercise.mutants.items()
                                              for _ in range(2)] + accepted_jobs(exercise) * 2
    for label, report in grader.grade_all(jobs, os.cpu_count() or 1):
        runs.setdefault(label, []).append(_Run.of(report))
    return runs


def _check_reference(exercise, runs, result):
    run = runs["reference"][0]
    path = exercise.path / "solution.py"
    if run.error is not None:
        problems = [_problem(path, f"the reference does not load: {run.error}")]
    else:
        problems = [_problem(path, f"the reference fails test {name!r} ({status}): {message}")
                    for name, status, message, _ in run.tests if status != "passed"]
    passed = sum(status == "passed" for status in run.statuses)
    result.check(f"reference passes {passed}/{len(run.tests)} tests", problems)


def _check_starter(exercise, runs, result):
    run = runs["starter"][0]
    problems = []
    if run.passed:
        problems.append(_problem(exercise.path / "starter.py", "the starter passes every hidden test: "
                                                               "learners would start from a solved exercise"))
    passed = sum(status == "passed" for status in run.statuses)
    result.check(f"starter does not pass: {passed}/{len(run.tests)} tests pass on it", problems)


def _check_mutants(exercise, runs, earlier, result):
    if not exercise.mutants:
        result.check("mutants: none (add known-wrong solutions under mutants/)",
                     [_problem(exercise.path / "mutants", "no mutants: add at least one known-wrong solution "
                                                          "that the tests must reject")])
        return
    problems, details = [], []
    caught = 0
    for name, source in exercise.mutants.items():
        run = runs[name][0]
        path = exercise.path / "mutants" / name
        if not MUTANT_HEADER.match(source):
            problems.append(_problem(path, "a mutant starts with a comment saying what mistake it models, "
                                           "e.g. '# Normalises each column instead of each row.'", 1))
        if run.error is not None:
            problems.append(_problem(path, f"the mutant does not load ({run.error}); a mutant should load "
                                           f"and be caught by a test"))
        elif run.passed:
            difference = find_difference(exercise, source, earlier, timeout=2 * exercise.time_limit + 10)
            problems.append(_problem(path, f"mutant survived: every hidden test passes on it; {difference}; "
                                           f"if it is a mistake, add a test that catches it"))
        else:
            caught += 1
            details.append(f"{name}: caught by {_catchers(run)}")
            declared = declared_diagnosis(source)
            problem = declared and diagnosis_problem(declared[1], [test[:3] for test in run.tests])
            if problem:
                problems.append(_problem(path, problem, declared[0]))
    result.check(f"mutants: {caught}/{len(exercise.mutants)} caught", problems, details)


def _catchers(run):
    """"'A' (failed) and 2 other test(s)": the first test that the mutant does not pass, and how many more."""
    caught = [(name, status) for name, status, _, _ in run.tests if status != "passed"]
    more = f" and {len(caught) - 1} other test(s)" if len(caught) > 1 else ""
    return f"{caught[0][0]!r} ({caught[0][1]}){more}"


def _check_determinism(exercise, runs, result):
    problems = []
    flaky = set()
    for label, pair in runs.items():
        if len(pair) != 2:
            continue
        first, second = pair
        if first.error != second.error:
            problems.append(_problem(_path_of(exercise, label), f"loads differently when graded twice: "
                                                                f"{first.error!r}, then {second.error!r}"))
        for (name, status1, _, _), (_, status2, _, _) in zip(first.tests, second.tests):
            if status1 != status2 and name not in flaky:
                flaky.add(name)
                problems.append(_problem(exercise.path / "tests.py", f"test {name!r} is flaky: on "
                                         f"{_describe(label)} it {status1}, then {status2} when graded again "
                                         f"(seed every random generator; do not depend on time or leftover state)"))
    graded = len([pair for pair in runs.values() if len(pair) == 2])
    result.check(f"deterministic: {graded} solutions graded twice, same verdicts", problems)


def _check_speed(exercise, runs, result):
    run = min(runs["reference"], key=lambda r: r.seconds)  # the faster run: less noise from the machine
    budget = BUDGET_FRACTION * exercise.time_limit
    slowest = max(run.tests, key=lambda t: t[3])
    figure = (f"reference tests take {run.seconds:.2f} s, budget {budget:.2f} s "
              f"({BUDGET_FRACTION:.0%} of time_limit {exercise.time_limit:g} s); "
              f"slowest: {slowest[0]!r} {slowest[3] / 1000:.2f} s")
    problems = []
    if run.seconds > budget:
        problems.append(_problem(exercise.path / "tests.py", f"too slow: the reference's tests take "
                                 f"{run.seconds:.2f} s, over the budget of {budget:.2f} s; the slowest is "
                                 f"{slowest[0]!r} ({slowest[3] / 1000:.2f} s): use smaller inputs"))
    result.check(f"fast: {figure}", problems)


def _check_pyodide(exercise, runs, earlier, dist, result):
    # A mutant that times out in CPython would hang Pyodide, which cannot be interrupted from outside.
    skipped = [name for name in exercise.mutants if any(s == "timeout" for s in runs[name][0].statuses)]
    sources = {"reference": exercise.solution}
    sources.update((name, source) for name, source in exercise.mutants.items() if name not in skipped)
    sources.update(accepted_jobs(exercise))
    started = time.perf_counter()
    try:
        pyodide_runs = _grade_in_pyodide(exercise, sources, dist, earlier)
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
        for (name, status1, _, _), (_, status2, message, _) in zip(cpython_run.tests, pyodide_run.tests):
            if status1 != status2:
                problems.append(_problem(_path_of(exercise, label), f"test {name!r} is {status1} in CPython but "
                                         f"{status2} in Pyodide" + (f": {message}" if message else "")))
    reference_seconds = pyodide_runs["reference"].seconds
    if reference_seconds > exercise.time_limit:
        problems.append(_problem(exercise.path / "tests.py", f"the reference's tests take {reference_seconds:.2f} s "
                                 f"in Pyodide, over time_limit {exercise.time_limit:g} s: a correct solution "
                                 f"would time out in the browser"))
    details = [f"not run in Pyodide (times out in CPython): {name}" for name in skipped]
    mutants = f"{len(sources) - 1 - len(exercise.accepted)} mutant(s)"
    graded = (f"reference, {mutants} and {len(exercise.accepted)} accepted variant(s)" if exercise.accepted
              else f"reference and {mutants}")
    result.check(f"Pyodide: {graded} get the same verdicts as in CPython "
                 f"(reference tests {reference_seconds:.2f} s in Pyodide; {wall:.1f} s with Node startup)",
                 problems, details)


class PyodideError(Exception):
    """Node or Pyodide could not run the grading at all."""


def pyodide_dist():
    """The verified Pyodide folder to pass as `validate_exercise(..., pyodide_dist=...)`."""
    try:
        node_command()
    except NodeError as exc:
        raise PyodideError(f"grading in Pyodide needs Node.js: {exc}") from None
    try:
        return ensure_dist(project_root=PROJECT_ROOT)
    except DistError as exc:
        raise PyodideError(f"cannot assemble the Pyodide distribution: {exc}") from None


def _grade_in_pyodide(exercise, sources, dist, earlier=()):
    """{label: _Run} for each source, all graded in one Node process running Pyodide, the `earlier`
    steps (EarlierStep) in scope."""
    files = {path.relative_to(PROJECT_ROOT).as_posix(): path.read_text(encoding="utf-8")
             for path in [PROJECT_ROOT / "grader" / "__init__.py",
                          *sorted((PROJECT_ROOT / "grader" / "core").glob("*.py"))]}
    request = json.dumps({"spec": dataclasses.asdict(exercise.grading_spec()), "sources": sources,
                          "earlier": [step.to_dict() for step in earlier]})
    code = (
        "import json\n"
        "from grader.core.engine import EarlierStep, GradingSpec, grade\n"
        f"request = json.loads({request!r})\n"
        "spec = GradingSpec(**request['spec'])\n"
        "earlier = [EarlierStep.from_dict(fields) for fields in request['earlier']]\n"
        "reports = {label: grade(spec, source, earlier=earlier) for label, source in request['sources'].items()}\n"
        "json.dumps(reports)\n"
    )
    timeout = NODE_STARTUP_SECONDS + exercise.time_limit * len(sources)
    try:
        process = subprocess.run([node_command(), str(NODE_RUNNER), str(dist)],
                                 input=json.dumps({"files": files, "code": code}),
                                 capture_output=True, text=True, timeout=timeout)
    except OSError as exc:
        raise PyodideError(f"cannot start Node.js: {exc}") from None
    except subprocess.TimeoutExpired:
        raise PyodideError(f"Node did not finish within {timeout:g} s") from None
    if process.returncode != 0 or not process.stdout.strip():
        raise PyodideError(f"Node exited with code {process.returncode}: {process.stderr.strip()[-2000:]}")
    reports = json.loads(process.stdout.splitlines()[-1])
    return {label: _Run.of(report) for label, report in reports.items()}


def _path_of(exercise, label):
    if label == "reference":
        return exercise.path / "solution.py"
    return exercise.path / (label if label.startswith(LABEL_PREFIX) else f"mutants/{label}")


def _describe(label):
    if label == "reference":
        return "the reference"
    return f"accepted variant {label[len(LABEL_PREFIX):]}" if label.startswith(LABEL_PREFIX) else f"mutant {label}"

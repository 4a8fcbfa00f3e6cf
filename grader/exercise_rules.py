"""The rules an exercise's own files must follow, checked the same way by `validate`, `check`, the build,
`batch` and `gradescope build` (grader/cli.py).

The loader (grader/exercise.py) checks each file's format and exercise.toml,
and grader/track.py the steps it uses; the rules here need more: the
exercises beside it (no two share a step of a track), the hidden tests
loaded (as `check` loads them: in a child, within a time limit, printing
nothing; then here, for their docstrings and names) and the mutants' header
comments.  Nothing is graded: the checks that grade (reference, starter,
mutants caught, determinism, speed) are grader/authoring/validate.py's.
"""

import ast
import dataclasses
import functools
import inspect
import re
import sys

from grader.checker.supervisor import load_test_names
from grader.core.engine import TRACK_MODULE, TestsError, load_tests
from grader.exercise import ExerciseError, exercise_folders, track_step, where
from grader.nondeterminism import nondeterministic_calls

MUTANT_HEADER = re.compile(r"#[ \t]*\S")  # a mutant's first line: a comment with some text in it


class InvalidExercise(Exception):
    """The exercise breaks some rules: `problems`, one line each, naming the file and the line."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def ensure_valid(exercise, beside=None):
    """The hidden tests (HiddenTest, in order), or InvalidExercise listing every rule `exercise` breaks.

    `beside`: the exercises of its folder when they are loaded already (see step_problems)."""
    tests, problems = tests_problems(exercise)
    problems = step_problems(exercise, beside) + problems + mutant_problems(exercise)
    if problems:
        raise InvalidExercise(problems)
    return tests


def step_problems(exercise, beside=None):
    """[problem] when another exercise beside it (in the same folder) has the same step of the same track.

    `beside`: those exercises (Exercise) when they are loaded already; else their exercise.toml files are read.
    """
    if beside is None:
        steps = [(folder, found[:2]) for folder in exercise_folders(exercise.path.parent)
                 if (found := track_step(folder)) is not None]
    else:
        steps = [(other.path, (other.track, other.step)) for other in beside]
    problems = []
    for folder, track_and_step in steps:
        if track_and_step == (exercise.track, exercise.step) and folder.resolve() != exercise.path.resolve():
            there = where(folder / "exercise.toml", track_step(folder)[2])
            problems.append(str(exercise.error_at("step", f"step {exercise.step} of track {exercise.track!r} is "
                                                          f"already used by {folder.name} ({there})")))
    return problems


def mutant_problems(exercise):
    """[problem] when there is no mutant, or one does not start with the comment saying what mistake it models."""
    if not exercise.mutants:
        return [_problem(exercise.path / "mutants", "no mutants: add at least one known-wrong solution that the "
                                                    "tests must reject")]
    header = ("a mutant starts with a comment saying what mistake it models, e.g. '# Normalises each column "
              "instead of each row.'")
    return [_problem(exercise.path / "mutants" / name, header, 1)
            for name, source in exercise.mutants.items() if not MUTANT_HEADER.match(source)]


def tests_problems(exercise):
    """([HiddenTest] or None when they do not load, [problem]): the hidden tests load as `check` loads them (without
    the exercise's files, as on the page), each has a docstring and a name of its own, no test function is defined
    twice, they import only what the browser has, read neither the clock nor an unseeded or global generator
    (grader/nondeterminism.py), and [points] and [visibility] name only their tests."""
    tests_path = exercise.path / "tests.py"
    tree = ast.parse(exercise.tests_source)  # the loader compiled it already
    # Checked before loading: a module the browser lacks may well import fine here, or fail the import.
    problems = (_foreign_imports(tree, tests_path, exercise) + _shadowed_tests(tree, tests_path)
                + [_problem(tests_path, what, line) for line, what in nondeterministic_calls(tree)]
                + track_helpers_problems(exercise))
    spec = exercise.grading_spec()
    # In a child, as `check` loads them: printing, hanging or exiting while loading is refused there.
    # Keyed on what loading depends on (no points: a dict, unhashable), so that unchanged tests load once.
    refused = _refused_by_check(dataclasses.replace(spec, exercise_id="", points=None), hidden_folders(exercise))
    if refused is not None:
        return None, [*problems, refused]
    try:
        tests = load_tests(spec)
    except TestsError as exc:
        return None, [*problems, str(exc)]
    except SystemExit:  # not an Exception, so load_tests lets it through
        return None, [*problems, _problem(tests_path, "the hidden tests call exit while being imported")]
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
        exercise.check_test_names([test.name for test in tests])
    except ExerciseError as exc:
        problems.append(str(exc))
    return tests, problems


@functools.lru_cache(maxsize=256)  # a preview rebuilding on every save loads the unchanged ones once
def _refused_by_check(spec, hidden):
    """Why `check` would refuse to load these hidden tests (TestsError's message), or None."""
    try:
        load_test_names(spec, hidden=hidden)
    except TestsError as exc:
        return str(exc)
    return None


def hidden_folders(exercise):
    """The folders the hidden tests may not read, as on the page: the exercise's and every exercise's beside it
    (their references, mutants and data are not on the page either)."""
    return tuple(sorted({str(exercise.path), *map(str, exercise_folders(exercise.path.parent))}))


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


def track_helpers_problems(exercise):
    """[problem] for the track's helper module (_track/<track>.py): it imports only what the tests may, never a
    reference, and reads neither the clock nor an unseeded or global generator."""
    if exercise.track_helpers is None:
        return []
    path = exercise.track_helpers_path
    tree = ast.parse(exercise.track_helpers)  # the loader compiled it already
    return (_foreign_imports(tree, path, exercise, helpers=True)
            + [_problem(path, what, line) for line, what in nondeterministic_calls(tree)])


def _foreign_imports(tree, tests_path, exercise, helpers=False):
    """Imports of anything but numpy, the standard library and grader.core: the browser has nothing else.
    The tests may import the track's helpers (`_track`) when the track has them; neither may import a reference."""
    references = {"solution", "submission", "exercises", "mutants", "accepted", *(
        folder.name for folder in exercise_folders(exercise.path.parent))} | ({TRACK_MODULE} if helpers else set())
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
            if top in references and top not in sys.stdlib_module_names:
                who = "the track's helpers" if helpers else "hidden tests"
                problems.append(_problem(tests_path, f"imports {module}: {who} may not import a reference or "
                                         f"another exercise's files (the page has none of them); compute expected "
                                         f"values in plain Python and numpy", node.lineno))
                continue
            if top == TRACK_MODULE and not helpers:
                if exercise.track_helpers is None:
                    problems.append(_problem(tests_path, f"imports {TRACK_MODULE}, but the track {exercise.track!r} "
                                             f"has no helper module ({where(exercise.track_helpers_path)})",
                                             node.lineno))
                continue
            if not (top == "numpy" or top in sys.stdlib_module_names
                    or module == "grader.core" or module.startswith("grader.core.")):
                problems.append(_problem(tests_path, f"imports {module}: hidden tests may import only numpy, the "
                                         f"standard library and grader.core (they run in the browser too, and "
                                         f"compute expected values without solution.py)", node.lineno))
    return problems


def _problem(path, message, line=None):
    """'path[:line]: message', the path shown as the loader shows it."""
    return str(ExerciseError(path, message, line))

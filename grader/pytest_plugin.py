"""pytest for exercise authors: `pytest exercises/ID` (exercises/conftest.py installs these hooks).

Each exercise's tests.py is collected as a pytest module, with pytest's own
assertion rewriting, tracebacks, `-k` and `--pdb`, and every hidden test gets
the reference solution as its argument (`test_shape[reference]`), run with the
references of the steps it `uses` in scope, as offline grading runs it.  After the
tests, one item per mutant (`mutant[swapped_sin_cos]`) grades that mutant with
the real grader, in an isolated process under the exercise's time limit, and
fails, naming the mutant, when every hidden test passes on it; one item per
accepted variant (`accepted[inverse_cdf_draw]`) grades it the same way and
fails, naming the tests that reject it, unless every hidden test passes on it.
Either fails when a test fails in its own code on the file (with the tests.py
line and the traceback): that is the exercise's bug, never a verdict.

The project's own test suite (`pytest`, testpaths = tests) never loads this.
"""

import functools
import importlib.util
import sys

import pytest

from grader.exercise import ExerciseError, load_exercise
from grader.checker.supervisor import Limits, grade_isolated
from grader.core.engine import load_earlier
from grader.track import reference_steps

# Exercise files are imported as exercises.<id>.tests and exercises.<id>.solution: every
# exercise has a tests.py, so the plain module name "tests" would clash.
MODULE_PREFIX = "exercises"
pytest.register_assert_rewrite(MODULE_PREFIX)


def _is_hidden_tests(path):
    return path.name == "tests.py" and (path.parent / "exercise.toml").is_file()


def pytest_collect_file(file_path, parent):
    # A tests.py named on the command line goes to pytest_pycollect_makemodule instead.
    if _is_hidden_tests(file_path) and not parent.session.isinitpath(file_path):
        return HiddenTests.from_parent(parent, path=file_path)
    return None


def pytest_pycollect_makemodule(module_path, parent):
    if _is_hidden_tests(module_path):
        return HiddenTests.from_parent(parent, path=module_path)
    return None


def pytest_generate_tests(metafunc):
    module = metafunc.definition.parent
    if isinstance(module, HiddenTests) and module.exercise.entry in metafunc.fixturenames:
        metafunc.parametrize(module.exercise.entry, [module.reference], ids=["reference"])


class HiddenTests(pytest.Module):
    """An exercise's tests.py: its hidden tests run on the reference, then one item per mutant."""

    @functools.cached_property
    def exercise(self):
        try:
            return load_exercise(self.path.parent)
        except ExerciseError as exc:
            raise self.CollectError(str(exc)) from None

    @functools.cached_property
    def earlier(self):
        try:
            return reference_steps(self.exercise)
        except ExerciseError as exc:
            raise self.CollectError(str(exc)) from None

    @functools.cached_property
    def reference(self):
        scope, error = load_earlier(self.earlier)
        if error is not None:
            raise self.CollectError(f"{self.path.parent / 'exercise.toml'}: a step it uses does not load: {error}")
        module = _import(f"{MODULE_PREFIX}.{self.exercise.id}.solution", self.path.parent / "solution.py", scope)
        if not callable(getattr(module, self.exercise.entry, None)):
            raise self.CollectError(f"{self.path.parent / 'solution.py'}: defines no function "
                                    f"{self.exercise.entry!r} (the entry in exercise.toml)")
        return getattr(module, self.exercise.entry)

    def _getobj(self):
        # pytest.Module's one hook for where the module object comes from.
        return _import(f"{MODULE_PREFIX}.{self.exercise.id}.tests", self.path)

    def collect(self):
        yield from super().collect()
        for name in self.exercise.mutants:
            yield Mutant.from_parent(self, name=f"mutant[{name.removesuffix('.py')}]", filename=name)
        for name in self.exercise.accepted:
            yield AcceptedVariant.from_parent(self, name=f"accepted[{name.removesuffix('.py')}]", filename=name)


class WrongVerdict(Exception):
    """A mutant that no test catches, or an accepted variant that a test rejects."""


class _GradedFile(pytest.Item):
    """Grades one file of `folder` (mutants/ or accepted/) like a learner's; `judge` decides on the report."""
    folder = kind = ""

    def __init__(self, *, filename, **kwargs):
        super().__init__(**kwargs)
        self.filename = filename

    def runtest(self):
        exercise = self.parent.exercise
        source = getattr(exercise, self.folder)[self.filename]
        limits = Limits(time_limit=exercise.time_limit, test_limit=exercise.test_time_limit)
        report = grade_isolated(exercise.grading_spec(), source, limits, earlier=self.parent.earlier,
                                authoring=True)
        where = f"{exercise.path.name}/{self.folder}/{self.filename}"
        broken = [test["test_code_error"]["traceback"] for test in report["tests"] if "test_code_error" in test]
        if broken:  # a test that failed in its own code is the exercise's bug, never a verdict on this file
            raise WrongVerdict(f"{where}: a test failed in its own code, not because of this file:\n"
                               + "\n".join(dict.fromkeys(broken)))
        self.judge(report, where)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, WrongVerdict):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path.parent / self.folder / self.filename, None, f"{self.kind} {self.filename}"


class Mutant(_GradedFile):
    """Grades one mutant; passes when at least one hidden test fails on it."""
    folder, kind = "mutants", "mutant"

    def judge(self, report, where):
        if report["error"] is not None:
            raise WrongVerdict(f"{where} does not load, so no test can catch it: {report['error']}")
        caught = [test for test in report["tests"] if test["status"] != "passed"]
        if not caught:
            raise WrongVerdict(f"{where} survived: all {len(report['tests'])} hidden tests pass on it; "
                               f"add a test that catches this mistake")
        self.add_report_section("call", "grading", "\n".join(
            f"caught by {test['name']} ({test['status']}): {test['message']}" for test in caught))


class AcceptedVariant(_GradedFile):
    """Grades one accepted variant (accepted/*.py); passes when every hidden test passes on it."""
    folder, kind = "accepted", "accepted variant"

    def judge(self, report, where):
        if report["error"] is not None:
            raise WrongVerdict(f"{where} is an accepted variant but does not load: {report['error']}")
        failing = [test for test in report["tests"] if test["status"] != "passed"]
        if failing:
            raise WrongVerdict(f"{where} is an accepted variant, yet {len(failing)} hidden test(s) reject it:\n"
                               + "\n".join(f"{test['name']} ({test['status']}): {test['message']}"
                                           for test in failing))


def _import(name, path, scope=None):
    """Import the file `path` as module `name` through sys.meta_path, where pytest rewrites asserts;
    `scope` ({name: value}) is defined in the module before it runs."""
    for finder in sys.meta_path:
        spec = finder.find_spec(name, [str(path.parent)]) if hasattr(finder, "find_spec") else None
        if spec is not None and spec.origin == str(path):
            break
    else:
        spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(scope or {})
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module

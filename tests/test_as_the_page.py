"""`validate`, `check` and the build grade the hidden tests as the page does: without the exercise's files on any
path the tests could open, without the clock or an unseeded or global generator, and twice from different process
states (grader/checker/as_the_page.py, grader/nondeterminism.py)."""

import ast

import pytest

from grader.authoring.scaffold import create_exercise
from grader.authoring.validate import validate_exercise
from grader.exercise import load_exercise
from grader.exercise_rules import InvalidExercise, ensure_valid
from grader.nondeterminism import nondeterministic_calls


@pytest.fixture
def folder(tmp_path):
    return create_exercise("softmax_rows", tmp_path / "exercises", draft=False)


def append_test(folder, source):
    with open(folder / "tests.py", "a") as tests:
        tests.write("\n\nfrom grader.core.checks import as_array, expect_close, fail, precision_of  # noqa: E402\n\n"
                    + source)
    return len((folder / "tests.py").read_text().splitlines())


def refusals(folder):
    with pytest.raises(InvalidExercise) as refused:
        ensure_valid(load_exercise(folder))
    return refused.value.problems


def line_of(folder, text):
    return next(number for number, line in enumerate((folder / "tests.py").read_text().splitlines(), 1)
                if text in line)


def test_a_test_loading_the_reference_by_path_fails_offline_in_one_line(folder):
    append_test(folder, '''\
import importlib.util
import pathlib


def test_against_reference(softmax_rows):
    """Agrees with the reference"""
    spec = importlib.util.spec_from_file_location("ref", pathlib.Path(__file__).parent / "solution.py")
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    x = np.ones((2, 3))
    expect_close(softmax_rows(x), reference.softmax_rows(x), what="softmax_rows(x)")
''')
    result = validate_exercise(folder)
    line = line_of(folder, "spec.loader.exec_module")
    assert result.problems == [f"{folder}/tests.py:{line}: test 'Agrees with the reference' reads "
                               f"{folder}/solution.py: the page grades without the exercise's files, so it would "
                               f"fail for every learner; compute expected values in tests.py"]
    assert "  ✗ tests' own code raises nothing and runs within its time" in result.lines


def test_reading_a_mutant_or_the_folder_while_loading_is_refused_by_check(folder):
    append_test(folder, '''\
import os

MUTANTS = os.listdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "mutants"))
''')
    line = line_of(folder, "MUTANTS =")
    (problem,) = refusals(folder)
    assert problem.startswith(f"{folder}/tests.py:{line}: hidden tests fail to import: FileNotFoundError: ")
    assert f"the hidden tests run without the exercise's files: '{folder}/mutants'" in problem


def test_an_earlier_steps_reference_is_out_of_reach_too(folder):
    other = create_exercise("other_step", folder.parent, draft=False)
    append_test(folder, f'''\
SOURCE = open({str(other / "solution.py")!r}).read()
''')
    (problem,) = refusals(folder)
    assert f"'{other}/solution.py'" in problem


@pytest.mark.parametrize("source, what", [
    ("import time\nRNG = np.random.default_rng(time.time_ns())",
     "reads the clock or the system's entropy (time.time_ns)"),
    ("from time import perf_counter\nSEED = int(perf_counter() * 1000)",
     "reads the clock or the system's entropy (time.perf_counter)"),
    ("import datetime as dt\nSEED = dt.datetime.now().microsecond",
     "reads the clock or the system's entropy (datetime.datetime.now)"),
    ("RNG = np.random.default_rng()", "numpy.random.default_rng() without a seed draws one from the operating system"),
    ("from numpy.random import RandomState\nRNG = RandomState(None)",
     "numpy.random.RandomState() without a seed draws one from the operating system"),
    ("X = np.random.rand(3, 4)", "numpy.random.rand uses numpy's global generator"),
    ("np.random.seed(0)", "numpy.random.seed uses numpy's global generator"),
    ("import random\nX = random.random()", "random.random uses the random module's global generator"),
])
def test_the_clock_and_unseeded_or_global_generators_are_refused_at_their_line(folder, source, what):
    last = append_test(folder, source)
    (problem,) = refusals(folder)
    assert problem.startswith(f"{folder}/tests.py:{last}: {what}"), problem


def test_seeded_generators_are_accepted():
    tree = ast.parse("import numpy as np\nimport random\nfrom numpy.random import default_rng\n"
                     "a = np.random.default_rng(0)\nb = default_rng(seed=3)\nc = random.Random(4)\n"
                     "d = np.random.Generator(np.random.PCG64(5))\ne = a.normal(size=3)\n")
    assert nondeterministic_calls(tree) == []


def test_a_test_drawing_from_leftover_global_state_is_flaky(folder):
    # Out of the static check's sight (looked up by name), the draw differs between the two gradings because each
    # starts from a freshly seeded global generator; forked from one process, both would draw the same.
    append_test(folder, '''\
def test_pair_of_rows(softmax_rows):
    """Two rows"""
    draw = vars(np.random)["random"]()
    x = np.array([[0.0, 1.0], [2.0, draw]])
    got = as_array(softmax_rows(x), precision_of(x), what="softmax_rows(x)")
    if not np.allclose(got.sum(axis=1), 1.0):
        fail(f"softmax_rows(x) for x = {x.tolist()}: rows do not sum to 1")
''')
    result = validate_exercise(folder)
    assert len(result.problems) == 1, result.problems
    assert result.problems[0].startswith(f"{folder}/tests.py: test 'Two rows' is flaky: on mutant "
                                         f"columns_not_rows.py its message changes when graded again, from ")

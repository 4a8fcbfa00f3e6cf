"""Tolerances come from the hidden tests' inputs, never from the learner's result.

Every shipped exercise is graded in this process (the engine the browser runs: fast, no sandbox) with
the learner's function wrapped so that its floating-point results (arrays and scalars, also inside
tuples and lists) come back cast to float32 or float16:

- a mutant stays caught by every test that catches it as it is: a lower precision hides no mistake;
- the reference, cast, fails exactly the tests where the cast made a result less precise than the
  call's inputs (float64 inputs, or none that are floats: float64 is expected), each with the
  message that names the dtype, and passes the others (float32 inputs accept a float32 result).
"""

import re

import numpy as np
import pytest

from grader.core.engine import InProcessLearner, run_tests
from grader.exercise import load_all
from grader.track import reference_steps

EXERCISES = load_all()
LOWER = [np.float32, np.float16]
# "... is float16 but the inputs are float64: compute and return float64", with no other diagnosis after it
DTYPE_MESSAGE = re.compile(r" is float(16|32) but .*: compute and return float(32|64)$")
INTEGER_RESULTS = {"generate", "sample_token",  # exercises whose results are token ids (and strings)
                   "char_tokenize", "get_batch", "bpe_train", "bpe_encode",
                   "t5_relative_bucket"}  # bucket numbers


def cast(value, dtype):
    """`value` with every float in it (numpy arrays and scalars, Python floats, in tuples and lists) cast to dtype."""
    if isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating):
        return value.astype(dtype)
    if isinstance(value, (float, np.floating)):
        return dtype(value)
    if isinstance(value, (list, tuple)):
        return type(value)(cast(item, dtype) for item in value)
    return value


def input_itemsize(values):
    """Bytes per number of the least precise float array among `values` (in lists, tuples, dicts); 8 if none."""
    sizes = [8]
    for value in values:
        if isinstance(value, (list, tuple)):
            sizes.append(input_itemsize(value))
        elif isinstance(value, dict):
            sizes.append(input_itemsize(list(value.values())))
        elif isinstance(value, (np.ndarray, np.floating)) and np.issubdtype(value.dtype, np.floating):
            sizes.append(value.dtype.itemsize)
    return min(sizes)


def has_float(value):
    if isinstance(value, np.ndarray):
        return np.issubdtype(value.dtype, np.floating)
    if isinstance(value, (list, tuple)):
        return any(type(item) is not int and has_float(item) for item in value)  # token ids: a long list of ints
    return isinstance(value, (float, np.floating))


class CastingLearner(InProcessLearner):
    """The learner's code in this interpreter, its float results cast to `dtype`.

    `lowered` is True once, in the current test, a cast made a result less precise than that call's inputs.
    """

    def __init__(self, entry_name, source, dtype, earlier=()):
        super().__init__(entry_name, source, earlier)
        self.dtype, self.lowered = dtype, False

    def load(self):
        problem = super().load()
        if problem is None:
            uncast = self.function

            def cast_function(*args, **kwargs):
                result = uncast(*args, **kwargs)
                if not has_float(result):
                    return result
                if np.dtype(self.dtype).itemsize < input_itemsize([*args, *kwargs.values()]):
                    self.lowered = True
                return cast(result, self.dtype)
            cast_function.__name__ = uncast.__name__
            self.function = cast_function
        return problem

    def begin_test(self):
        self.lowered = False


def grade_cast(exercise, source, dtype):
    """(report, indices of the tests in which a result was cast below its inputs' precision)."""
    learner = CastingLearner(exercise.entry, source, dtype, reference_steps(exercise))
    lowered = set()

    def note(event):
        if event["event"] == "test" and learner.lowered:
            lowered.add(event["index"])
    return run_tests(exercise.grading_spec(), learner, note), lowered


def caught(report):
    return {index for index, test in enumerate(report["tests"]) if test["status"] != "passed"}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the mutants' overflows, graded in this process
@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_a_mutant_cast_to_a_lower_precision_is_caught_by_the_same_tests(exercise):
    spec = exercise.grading_spec()
    escaped = []
    for name, source in exercise.mutants.items():
        as_written = caught(run_tests(spec, InProcessLearner(exercise.entry, source, reference_steps(exercise))))
        assert as_written, f"{name} is not caught even as written"
        for dtype in LOWER:
            report, _ = grade_cast(exercise, source, dtype)
            names = [report["tests"][i]["name"] for i in sorted(as_written - caught(report))]
            if names:
                escaped.append(f"{name} as {dtype.__name__} passes {names}")
    assert escaped == []


@pytest.mark.parametrize("dtype", LOWER, ids=lambda d: d.__name__)
@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_the_reference_cast_below_its_inputs_fails_with_the_dtype_message(exercise, dtype):
    report, lowered = grade_cast(exercise, exercise.solution, dtype)
    wrong = []
    for index, test in enumerate(report["tests"]):
        if index in lowered and (test["status"] != "failed" or not DTYPE_MESSAGE.search(test["message"])):
            wrong.append(f"{test['name']!r} should fail naming the dtype: {test['status']} {test['message']!r}")
        if index not in lowered and test["status"] != "passed":
            wrong.append(f"{test['name']!r} should pass, no result was less precise than its inputs: "
                         f"{test['status']} {test['message']!r}")
    assert wrong == []
    # Every exercise but those returning token ids checks some result at float64 (or float32) precision.
    assert bool(lowered) == (exercise.id not in INTEGER_RESULTS)


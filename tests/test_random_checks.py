"""grader.core.random_checks: random inputs from a seeded description, shrinking, messages, budgets.

Hidden tests using the helper are graded for real: in this interpreter (as the browser does) and,
for one case, through the offline checker with the learner's code in its own process.
"""

import pytest

from grader.checker.supervisor import Grader, Limits, shared_sandbox
from grader.core import random_checks
from grader.core.engine import GradingSpec, grade

TESTS = '''
import numpy as np
from grader.core.random_checks import array, choice, compare_on_random_inputs, dim

def _row_sums(x, scale):
    return np.array([sum(row) * scale for row in x.tolist()]).reshape(len(x), 1)

def test_random(row_sums):
    """Matches the formula on random inputs"""
    compare_on_random_inputs(row_sums, _row_sums,
                             {"x": array(("T", "C"), low=-3, high=3), "scale": choice(1.0, 2.0)},
                             dims={"T": (1, 6), "C": (1, 5)}, count=30, seed=0)
'''
SPEC = GradingSpec("row_sums", "row_sums", TESTS)
CORRECT = "import numpy as np\n\ndef row_sums(x, scale):\n    return x.sum(axis=1, keepdims=True) * scale\n"
# Wrong only when the array has 4 rows or more: fixed inputs with fewer rows would let it through.
WRONG_FROM_4_ROWS = ("import numpy as np\n\ndef row_sums(x, scale):\n"
                     "    out = x.sum(axis=1, keepdims=True) * scale\n"
                     "    if len(x) >= 4:\n        out[3] += 1.0\n    return out\n")


def only_test(report):
    [test] = report["tests"]
    return test


def test_a_correct_function_passes():
    assert only_test(grade(SPEC, CORRECT))["status"] == "passed"


def test_the_smallest_failing_input_is_reported_as_a_call():
    test = only_test(grade(SPEC, WRONG_FROM_4_ROWS))
    assert test["status"] == "failed"
    message = test["message"]
    assert message.startswith("row_sums(x, scale) is wrong on this input, the smallest failing one found "
                              "(random input "), message
    # Shrunk to 4 rows (the fewest that fail) of 1 column of zeros, and the simplest scale.
    assert ("    x = np.array([[0.],\n" + "                  [0.],\n" * 2 + "                  [0.]])\n"
            "    scale = 1.0\n") in message, message
    assert "  got:      np.array([[0.],\n" + "                      [0.],\n" * 2 + "                      [1.]])" \
        in message
    assert "row_sums(x, scale)[3, 0]: expected 0, got 1 (1 of 4 entries differ)" in message


def test_the_same_seed_gives_the_same_verdict_and_message():
    first, second = (only_test(grade(SPEC, WRONG_FROM_4_ROWS))["message"] for _ in range(2))
    assert first == second
    other_seed = grade(GradingSpec("row_sums", "row_sums", TESTS.replace("seed=0", "seed=5")), WRONG_FROM_4_ROWS)
    assert "row_sums(x, scale)[3, 0]: expected 0, got 1" in only_test(other_seed)["message"]


def test_an_exception_is_the_learners_error_on_the_smallest_input_that_raises():
    source = ("def row_sums(x, scale):\n    if x.shape[1] >= 3:\n        raise IndexError('too wide')\n"
              "    return x.sum(axis=1, keepdims=True) * scale\n")
    test = only_test(grade(SPEC, source))
    assert test["status"] == "error"
    message = test["message"]
    assert message.startswith("row_sums(x, scale) raises an exception on this input, the smallest failing one")
    assert "    x = np.array([[0., 0., 0.]])\n" in message, message
    assert "IndexError: too wide" in message and "line 3, in row_sums: raise IndexError('too wide')" in message


def test_shrinking_skips_inputs_the_expected_function_rejects_and_a_list_is_shown_as_an_array():
    tests = '''
import math
from grader.core.random_checks import array, compare_on_random_inputs

def _unit_rows(x):
    """Plain Python, as tests are written: a list of lists, and a ZeroDivisionError on a zero row."""
    return [[value / math.sqrt(sum(v * v for v in row)) for value in row] for row in x.tolist()]

def test_random(unit_rows):
    """Rows scaled to length 1"""
    compare_on_random_inputs(unit_rows, _unit_rows, {"x": array(("T", "C"), low=-3, high=3)},
                             dims={"T": (1, 4), "C": (1, 4)})
'''
    spec = GradingSpec("unit_rows", "unit_rows", tests)
    no_square_root = "import numpy as np\n\ndef unit_rows(x):\n    return x / (x ** 2).sum(axis=1, keepdims=True)\n"
    test = only_test(grade(spec, no_square_root))
    # Shrinking stops short of the all-zero row, where the expected values do not exist.
    assert test["status"] == "failed", test["message"]
    assert "    x = np.array([[-1.4]])\n  expected: np.array([[-1.]])\n  got:      np.array([[-0.71428571]])" \
        in test["message"], test["message"]


def test_shapes_agree_across_arguments_and_bounds_can_name_dimensions():
    tests = '''
import numpy as np
from grader.core.random_checks import array, compare_on_random_inputs, dim

def _pick(table, ids, n_heads):
    return table[ids].reshape(len(ids), n_heads, -1)

def test_random(pick):
    """ids index the rows of table; the width splits into heads"""
    compare_on_random_inputs(pick, _pick, {"table": array(("V", "H*D")), "ids": array(("T",), low=0, high="V",
                             dtype="int64"), "n_heads": dim("H")}, dims={"V": (1, 5), "T": (1, 4), "H": (1, 3),
                             "D": (1, 3)}, count=40)
'''
    spec = GradingSpec("pick", "pick", tests)
    correct = "def pick(table, ids, n_heads):\n    return table[ids].reshape(len(ids), n_heads, -1)\n"
    assert only_test(grade(spec, correct))["status"] == "passed"
    # Indexing with ids - 1 wraps id 0 round to the last row: caught on the smallest case, one id 0 of two rows.
    test = only_test(grade(spec, correct.replace("table[ids]", "table[ids - 1]")))
    assert test["status"] == "failed"
    assert "    ids = np.array([0])\n" in test["message"] and "    n_heads = 1\n" in test["message"], test["message"]


def test_shrinking_stays_within_its_call_budget():
    # Wrong everywhere and prints once per call: the output counts the calls.
    source = "def row_sums(x, scale):\n    print('call')\n    return x * 0 + 1.0\n"
    test = only_test(grade(SPEC, source))
    assert test["status"] == "failed"
    assert 1 < test["stdout"].count("call") <= 1 + random_checks.MAX_SHRINK_CALLS


def test_offline_through_the_sandboxed_learner():
    grader = Grader(SPEC, Limits(time_limit=10), shared_sandbox())
    wrong = only_test(grader.grade(WRONG_FROM_4_ROWS))
    assert wrong["message"] == only_test(grade(SPEC, WRONG_FROM_4_ROWS))["message"]
    assert only_test(grader.grade(CORRECT))["status"] == "passed"


@pytest.mark.parametrize("space, dims, message", [
    ({"x": random_checks.array(("T", "Q"))}, {"T": (1, 2)}, "dimension 'Q' is not in dims"),
])
def test_a_space_naming_an_unknown_dimension_is_the_authors_error(space, dims, message):
    with pytest.raises(ValueError, match=message):
        random_checks.compare_on_random_inputs(lambda x: x, lambda x: x, space, dims=dims)


PAIR_TESTS = '''
import numpy as np
from grader.core.random_checks import array, compare_on_random_inputs

def _stats(x):
    return np.array([sum(column) / len(column) for column in x.T.tolist()]), float(np.var(x))

def _named(x):
    mean, var = _stats(x)
    return {"mean": mean, "var": var}

def test_pair(stats):
    """Mean of each column and the variance of all"""
    compare_on_random_inputs(stats, _stats, {"x": array(("N", "C"))}, dims={"N": (1, 6), "C": (1, 3)})

def test_dict(stats):
    """The same, by name"""
    compare_on_random_inputs(lambda x: dict(zip(("mean", "var"), stats(x))), _named, {"x": array(("N", "C"))},
                             dims={"N": (1, 6), "C": (1, 3)})
'''
PAIR_SPEC = GradingSpec("stats", "stats", PAIR_TESTS)


def test_a_function_returning_a_tuple_or_a_dict_is_compared_item_by_item():
    correct = "import numpy as np\n\ndef stats(x):\n    return x.mean(axis=0), x.var()\n"
    assert [test["status"] for test in grade(PAIR_SPEC, correct)["tests"]] == ["passed", "passed"]
    # The sample variance (ddof=1): wrong from 2 points on (and nan for 1).
    wrong = "import numpy as np\n\ndef stats(x):\n    return x.mean(axis=0), x.var(ddof=1)\n"
    pair, named = grade(PAIR_SPEC, wrong)["tests"]
    assert pair["status"] == named["status"] == "failed"
    # Shrunk to one point, where the sample variance is nan; both results shown item by item.
    assert "  expected: (np.array([0.]),\n              0.0)\n  got:      (np.array([0.]),\n              nan)\n" \
        in pair["message"], pair["message"]
    assert pair["message"].endswith("\n  stats(x)[1]: expected 0, got nan"), pair["message"]
    assert "  expected: {'mean': np.array(" in named["message"] and "\n              'var': " in named["message"]
    assert "<lambda>(x)['var']" in named["message"], named["message"]


def test_a_tuple_of_the_wrong_length_is_named():
    source = "def stats(x):\n    return (x.mean(axis=0),)\n"
    pair = grade(PAIR_SPEC, source)["tests"][0]
    assert pair["status"] == "failed"
    assert pair["message"].endswith("stats(x): expected a tuple of 2 values, got 1"), pair["message"]

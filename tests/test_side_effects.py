"""A call that changes its arguments in place, or returns one of them, fails the test that made it, with the
same message in this interpreter (the browser's way) and through the real sandbox (offline marks)."""


import numpy as np
import pytest

from grader.checker.remote import Limits
from grader.checker.sandbox import Sandbox
from grader.checker.supervisor import Grader
from grader.core.engine import GradingSpec, grade
from grader.core.side_effects import side_effect

TESTS = '''
import numpy as np

def test_call(f):
    """One call with an array, a dict of arrays and a generator"""
    x = np.arange(6.0).reshape(2, 3)
    p = {"W": np.ones(3), "blocks": [np.zeros(2)]}
    f(x, p, np.random.default_rng(0))
'''

CASES = {
    "new arrays, generator advanced": (
        "def f(x, p, rng):\n    rng.normal()\n    return x * 2, {'W': p['W'] + 0}\n", None),
    "x *= 2": (
        "def f(x, p, rng):\n    x *= 2\n    return x.sum()\n",
        "changed its argument x in place (x[0, 1] was 1, is now 2)"),
    "writes into a nested array": (
        "def f(x, p, rng):\n    p['blocks'][0][1] = 5\n    return 0.0\n",
        "changed its argument p in place (p['blocks'][0][1] was 0, is now 5)"),
    "replaces an array in a list": (
        "def f(x, p, rng):\n    p['blocks'][0] = p['blocks'][0] + 1\n    return 0.0\n",
        "changed its argument p in place (p['blocks'][0][0] was 0, is now 1)"),
    "adds a key": (
        "def f(x, p, rng):\n    p['extra'] = 1\n    return 0.0\n",
        "changed its argument p in place (p: keys were added or removed)"),
    "reshapes in place": (
        "def f(x, p, rng):\n    x.shape = (3, 2)\n    return 0.0\n",
        "x went from shape (2, 3) float64 to shape (3, 2) float64"),
    "returns a transpose": (
        "def f(x, p, rng):\n    return x.T\n",
        "your result shares memory with the argument x"),
    "returns a nested slice": (
        "def f(x, p, rng):\n    return (x + 1, [p['W'][:2]])\n",
        "your result[1][0] shares memory with the argument p['W']"),
    "returns the dict it was given": (
        "def f(x, p, rng):\n    return {'grads': p}\n",
        "your result['grads'] is the argument p itself (the same dict, not a copy)"),
}


@pytest.fixture(scope="module")
def sandbox():
    box = Sandbox("bwrap")
    yield box
    box.close()


def only_test(report):
    [test] = report["tests"]
    return test


@pytest.mark.parametrize("name", CASES)
def test_in_this_interpreter_and_in_the_sandbox(name, sandbox):
    source, message = CASES[name]
    spec = GradingSpec("example", "f", TESTS)
    here = only_test(grade(spec, source))
    offline = only_test(Grader(spec, Limits(time_limit=5.0), sandbox).grade(source))
    for test in (here, offline):
        if message is None:
            assert test["status"] == "passed", test
        else:
            assert test["status"] == "failed", test
            assert message in test["message"]
    assert here["message"] == offline["message"]


def test_nan_inputs_left_alone_are_not_changes():
    x = np.array([np.nan, 1.0])
    assert side_effect(lambda x: None, ((x,), {}), ((x.copy(),), {}), 0.0) is None


def test_a_zero_whose_sign_changed_is_a_change():
    before, after = np.zeros(2), np.zeros(2)
    after[1] = -0.0
    assert "a zero changed its sign" in side_effect(lambda x: None, ((before,), {}), ((after,), {}), 0.0)


def test_a_number_replaced_in_a_dict_is_a_change():
    assert "argument opt in place (opt['t'] was 1, is now 2)" in side_effect(
        lambda opt: None, (({"t": 1},), {}), (({"t": 2},), {}), 0.0)
    assert side_effect(lambda opt: None, (({"t": float("nan")},), {}), (({"t": float("nan")},), {}), 0.0) is None


def test_keyword_arguments_are_named():
    before = np.ones(2)
    after = before.copy()
    after[0] = 3
    assert "argument dout in place (dout[0] was 1, is now 3)" in side_effect(
        lambda y, dout: None, ((), {"dout": before}), ((), {"dout": after}), 0.0)


def test_a_result_that_cannot_be_examined_is_said_so():
    class Hostile(np.ndarray):
        def __array_function__(self, *args, **kwargs):
            raise RuntimeError("no")
    x = np.ones(2)
    message = side_effect(lambda x: None, ((x,), {}), ((x.copy(),), {}), np.ones(2).view(Hostile))
    assert message.startswith("your function's result could not be examined (RuntimeError)")

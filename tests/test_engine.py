"""The in-process engine (what the browser runs): report shape, verdict classification, fresh inputs, output."""

import json

import pytest

from grader.core.engine import GradingSpec, TestsError as BrokenTests, grade

TESTS = '''
import numpy as np
from grader.core.checks import as_array, expect_close, precision_of

def test_double(double):
    """Doubles a vector"""
    data = np.arange(3.0)
    out = as_array(double(data), precision_of(data))
    expect_close(out, [0.0, 2.0, 4.0])
    expect_close(data, [0.0, 1.0, 2.0], what="the test's own input")

def test_allclose_still_real(double):
    """np.allclose is the real one"""
    out = as_array(double(np.ones(2)), precision_of(np.ones(2)))
    assert np.allclose(out, [2.0, 2.0]), "expected [2, 2]"

def test_bare_assert(double):
    """Bare assert"""
    assert as_array(double(np.zeros(1)), precision_of(np.zeros(1))).shape == (1,)
'''
SPEC = GradingSpec("double", "double", TESTS)


def statuses(report):
    return [t["status"] for t in report["tests"]]


def test_correct_submission_passes_with_the_report_schema():
    events = []
    report = grade(SPEC, "def double(x):\n    print('hi')\n    return x * 2\n", events.append)
    assert report["passed"] is True and report["error"] is None
    assert [t["name"] for t in report["tests"]] == ["Doubles a vector", "np.allclose is the real one", "Bare assert"]
    assert all(t["duration_ms"] >= 0 for t in report["tests"])
    assert report["stdout"] == "hi\n" * 3
    json.dumps(report)  # JSON-serialisable as it stands
    kinds = [e["event"] for e in events]
    assert kinds[0] == "start" and kinds[1] == "loaded" and kinds[-1] == "done"


def test_mutating_the_input_fails_the_call_and_does_not_reach_the_test():
    tests = '''
import numpy as np

def test_own_value(double):
    """The test's own x stays as it was"""
    x = np.ones(2)
    try:
        double(x)
    finally:
        assert x.tolist() == [1.0, 1.0], "the test's x changed"
'''
    report = grade(GradingSpec("double", "double", tests), "def double(x):\n    x *= 2\n    return x.copy()\n")
    assert statuses(report) == ["failed"]
    assert report["tests"][0]["message"].startswith("your function changed its argument x in place (x[0] was 1, "
                                                    "is now 2)")


def test_the_same_value_passed_twice_reaches_the_learner_as_two_copies():
    # As offline, where each argument crosses the wire on its own: f(x, x) gets two arrays, not one twice.
    tests = '''
import numpy as np

def test_pair(same_object):
    """q and k are two arrays"""
    x = np.ones(2)
    assert same_object(x, x) is False, "q is k"
'''
    spec = GradingSpec("pair", "same_object", tests)
    report = grade(spec, "import numpy as np\n\ndef same_object(q, k):\n    return q is k or np.shares_memory(q, k)\n")
    assert report["passed"] is True, report["tests"][0]["message"]


def test_wrong_answer_fails_with_expected_and_got():
    report = grade(SPEC, "def double(x):\n    return x * 3\n")
    assert statuses(report) == ["failed", "failed", "passed"]
    assert "expected 4, got 6" in report["tests"][0]["message"]


def test_learner_exception_is_an_error_with_a_trimmed_traceback():
    report = grade(SPEC, "def helper(x):\n    return x['a']\n\ndef double(x):\n    return helper(x)\n")
    message = report["tests"][0]["message"]
    assert statuses(report) == ["error"] * 3
    assert message.startswith("Your code raised IndexError")
    assert "line 5, in double" in message and "line 2, in helper" in message
    assert "engine.py" not in message


def test_assertion_raised_by_learner_code_is_an_error_not_a_test_failure():
    report = grade(SPEC, "def double(x):\n    assert False, 'mine'\n")
    assert statuses(report) == ["error"] * 3


def test_syntax_error_reports_its_line():
    report = grade(SPEC, "import numpy\n\ndef double(x)\n    return x\n")
    assert report["passed"] is False
    assert report["error"].startswith("SyntaxError on line 3")
    assert statuses(report) == ["error"] * 3


def test_missing_entry_and_non_function_entry():
    assert "does not define a function named `double`" in grade(SPEC, "x = 1\n")["error"]
    assert "should be a function" in grade(SPEC, "double = 3\n")["error"]


def test_output_is_capped():
    report = grade(SPEC, "def double(x):\n    print('x' * 100000)\n    return x * 2\n")
    assert len(report["stdout"]) < 40_000
    assert "output truncated" in report["stdout"]


@pytest.mark.parametrize("tests_source, expected", [
    ("import no_such_module\n", "tests.py:1: hidden tests fail to import: ModuleNotFoundError: No module named 'no_such_module'"),
    ("def test_a(other):\n    '''A'''\n", "must take exactly one parameter named 'double'"),
    ("x = 1\n", "defines no test_* functions"),
])
def test_broken_hidden_tests_raise_tests_error(tests_source, expected):
    with pytest.raises(BrokenTests, match=expected.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        grade(GradingSpec("double", "double", tests_source), "def double(x):\n    return x\n")


def test_an_exception_of_the_tests_own_code_is_not_the_learners():
    """Told apart by where it was raised: the learner's call (or code), or the test's own lines."""
    tests = '''
import numpy as np

def test_own_bug(double):
    """Own bug"""
    got = double(np.ones(2))
    return got >= 0.0 | got <= 1.0

def test_learner_raises(double):
    """Learner raises"""
    double(None)

def test_result_method_raises(double):
    """A method of the result raises"""
    float(double(np.ones(3)))
'''
    source = ("import numpy as np\nclass Odd:\n    def __float__(self):\n        raise ValueError('odd')\n"
              "def double(x):\n    if x is None:\n        raise KeyError('none')\n"
              "    return Odd() if x.shape == (3,) else x * 2\n")
    events = []
    report = grade(GradingSpec("double", "double", tests, "exercises/double/tests.py"), source, events.append)
    own, learner, method = report["tests"]
    assert own["status"] == "error" and own["message"] == (
        "Not graded: the exercise has a bug (its test code raised TypeError at tests.py:7); your code is not at "
        "fault.")
    assert own["exercise_bug"] is True and "exercise_bug" not in learner and "exercise_bug" not in method
    own_event = next(e for e in events if e["event"] == "test" and e["index"] == 0)
    assert own_event["test_code_error"]["line"] == 7 and own_event["test_code_error"]["kind"] == "raised"
    assert own_event["test_code_error"]["traceback"].startswith("exercises/double/tests.py:7: TypeError: ufunc")
    assert 0 <= own_event["learner_ms"] <= own_event["duration_ms"]
    assert "test_code_error" not in own  # a learner's report keeps the author's traceback out
    assert learner["status"] == "error" and learner["message"].startswith("Your code raised KeyError: 'none'")
    assert "test_code_error" not in next(e for e in events if e["event"] == "test" and e["index"] == 1)
    # In the browser a result may be the learner's own object: its method raising is the learner's.
    assert method["status"] == "error" and method["message"] == "Your result raised ValueError while it was checked: odd"
    # The exercise's bug is left out of the score; the learner's two errors count.
    assert (report["score"], report["max_score"], report["passed"]) == (0, 2, False)


FORGED_SENTENCE = ("Not graded: the exercise has a bug (its test code raised TypeError at tests.py:7); your code "
                   "is not at fault.")


@pytest.mark.parametrize("raise_it", [
    # A class named like the grader's sentence, its message copying the rest.
    "raise type('Not graded', (Exception,), {})(" + repr(FORGED_SENTENCE.removeprefix("Not graded: ")) + ")",
    # An exception whose str() is the whole sentence, and a result whose method raises one.
    "raise type('', (TypeError,), {'__str__': lambda self: " + repr(FORGED_SENTENCE) + "})()",
])
def test_a_learner_exception_never_reads_as_the_exercises_bug(raise_it):
    tests = '''
def test_one(double):
    """One"""
    double(1)

def test_two(double):
    """Two"""
    assert double(2) == 4
'''
    source = f"def double(x):\n    if x == 1:\n        {raise_it}\n    return 2 * x\n"
    report = grade(GradingSpec("double", "double", tests), source)
    forged, honest = report["tests"]
    assert forged["status"] == "error" and forged["message"].startswith("Your code raised ")
    assert FORGED_SENTENCE.removeprefix("Not graded: ") in forged["message"]
    assert "exercise_bug" not in forged and not forged["message"].startswith("Not graded")
    assert (report["score"], report["max_score"], report["passed"]) == (1, 2, False)


def test_a_test_that_fails_in_its_own_code_is_left_out_of_the_score():
    tests = '''
def test_right(double):
    """Right"""
    assert double(2) == 4

def test_broken(double):
    """Broken"""
    double(3)
    {}["no such key"]

def test_also_right(double):
    """Also right"""
    assert double(5) == 10
'''
    spec = GradingSpec("double", "double", tests, points={"Right": 2, "Broken": 5, "Also right": 3})
    report = grade(spec, "def double(x):\n    return 2 * x\n")
    right, broken, also = report["tests"]
    assert broken["exercise_bug"] is True and broken["message"].startswith("Not graded: the exercise has a bug")
    assert (broken["score"], broken["max_score"]) == (0, 5)  # what it is worth, left out of the total
    assert (report["score"], report["max_score"], report["passed"]) == (5, 5, True)
    # A wrong solution still fails the tests that do check it.
    wrong = grade(spec, "def double(x):\n    return 3 * x\n")
    assert (wrong["score"], wrong["max_score"], wrong["passed"]) == (0, 5, False)
    # A run whose every test is the exercise's bug grades nothing: it does not pass.
    nothing = grade(GradingSpec("double", "double", "def test_b(double):\n    1 / 0\n"), "def double(x):\n    return x\n")
    assert (nothing["score"], nothing["max_score"], nothing["passed"]) == (0, 0, False)

"""`validate` says where its time went: phases, each slow test split into its own code and the reference's
calls (as the sandboxed grading of the reference measured them), and the slowest mutants."""

import re

import pytest

from grader.authoring.scaffold import create_exercise
from grader.authoring.validate import validate_exercise

SLOW_TEST = '''

def test_slow_expected_values(demo):
    """Expected values that take a while to compute"""
    import time
    time.sleep(0.3)  # stands for expected-value code that is slow: the test's own time, not the reference's
    _check(demo, [[1.0, 2.0]])
'''


@pytest.fixture(scope="module")
def validated(tmp_path_factory):
    folder = create_exercise("demo", tmp_path_factory.mktemp("exercises"))
    with open(folder / "tests.py", "a") as tests:
        tests.write(SLOW_TEST)
    lines = (folder / "tests.py").read_text().splitlines()
    slow_test_line = lines.index("def test_slow_expected_values(demo):") + 1
    return validate_exercise(folder), slow_test_line


def test_the_report_names_the_phases(validated):
    validated, _ = validated
    [line] = [line for line in validated.lines if line.startswith("  time: ")]
    phases = re.findall(r"(?:: |, )([a-zA-Z][^,:]*?) (\d+\.\d\d) s", line)
    assert [name for name, _ in phases] == ["rendering", "reference graded twice",
                                            "starter once and 1 mutant(s) and 1 accepted variant(s) twice",
                                            "statement's examples on the reference"]
    assert validated.ok, validated.problems


def test_a_slow_test_is_blamed_on_its_own_code(validated):
    validated, slow_test_line = validated
    start = validated.lines.index("      the 3 slowest tests, as test code + the reference's calls:")
    slowest = validated.lines[start + 3]  # listed in the order of tests.py, where it comes last
    match = re.fullmatch(r"        'Expected values that take a while to compute' \(tests.py:(\d+)\): "
                         r"(\d+\.\d\d) s \+ (\d+\.\d\d) s", slowest)
    assert match, slowest
    assert float(match.group(2)) >= 0.3  # the sleep is the test's own
    assert int(match.group(1)) == slow_test_line


def test_the_slowest_mutants_are_named(validated):
    validated, _ = validated
    assert any(re.fullmatch(r"      slowest mutants, their tests' time \(a timeout counts in full\): "
                            r"(\S+\.py \d+\.\d\d s, )*columns_not_rows\.py \d+\.\d\d s(, \S+\.py \d+\.\d\d s)*", line)
               for line in validated.lines)

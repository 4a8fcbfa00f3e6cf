"""Hidden tests whose own code is slow or raises: in the page, as offline, the exercise's error, not the learner's:
shown as not graded and left out of the score.

The page serves sinusoidal_pe with other hidden tests (its grading.json rewritten on the way): one raises in its
own code, one loops in its own code after calling the learner's function. Only a cross-origin isolated page can
interrupt Python and learn where it was, so the page is an isolated one.
"""

import json

from conftest import PYTHON_READY_MS, wait_until_ready
from page_helpers import SOLUTION, grade_in_page, set_time_limit, shown_results, wait_for_results

TESTS = '''import numpy as np


def test_shape(sinusoidal_pe):
    """Output shape is (T, C)"""
    assert sinusoidal_pe(4, 8).shape == (4, 8)


def test_precedence_bug(sinusoidal_pe):
    """Every value lies in [-1, 1]"""
    pe = sinusoidal_pe(4, 8)
    assert (pe <= 1 | pe >= -1).all()  # the author's bug: 1 | pe raises TypeError


def test_endless(sinusoidal_pe):
    """A test whose own code never ends"""
    sinusoidal_pe(4, 8)
    while True: pass


def test_after(sinusoidal_pe):
    """Larger tables too"""
    assert sinusoidal_pe(16, 8).shape == (16, 8)
'''
NAMES = ["Output shape is (T, C)", "Every value lies in [-1, 1]", "A test whose own code never ends",
         "Larger tables too"]
RAISING_LINE = TESTS.splitlines().index("    assert (pe <= 1 | pe >= -1).all()  # the author's bug: 1 | pe raises "
                                        "TypeError") + 1
LOOP_LINE = TESTS.splitlines().index("    while True: pass") + 1
TEST_LIMIT = 4
TOTAL_LIMIT = 2.5  # less than TEST_LIMIT: the run's limit runs out first
RAISED = (f"Not graded: the exercise has a bug (its test code raised TypeError at tests.py:{RAISING_LINE}); your "
          "code is not at fault.")


def stopped_in_tests(limit):
    return ("Not graded: the exercise has a bug: this test could not finish: the exercise's own test code (not yours) "
            f"was still running when the time ran out ({limit}), at tests.py:{LOOP_LINE} (in test_endless). Your code "
            "is not at fault.")


def test_slow_or_raising_test_code_is_the_exercises_fault(page, isolated_base_url):
    def with_other_tests(route):
        spec = json.loads(route.fetch().text())
        route.fulfill(json={**spec, "tests_source": TESTS, "test_names": NAMES, "points": None,
                            "test_time_limit": TEST_LIMIT})
    page.route("**/sinusoidal_pe/grading.json", with_other_tests)
    page.goto(f"{isolated_base_url}/exercises/sinusoidal_pe/")
    wait_until_ready(page)

    # The run's own limit runs out in the looping test: it is an error of the exercise, and so is the run.
    set_time_limit(page, TOTAL_LIMIT)
    page.evaluate("source => { window.gradeSubmission(source); }", SOLUTION)
    wait_for_results(page)
    by_all = stopped_in_tests(f"{TOTAL_LIMIT:g} s, the limit for all the tests")
    assert page.locator("#results .run-notice").inner_text() == by_all
    rows = shown_results(page)
    assert rows[:3] == [("passed", NAMES[0], ""), ("error", NAMES[1], RAISED), ("error", NAMES[2], by_all)]
    assert "Time limit exceeded" not in page.locator("#results").inner_text()
    # Not graded, and left out of the score: the test not run after the loop too (as offline).
    assert page.locator("#results .result-row.not-graded .result-status").all_inner_texts() == ["Not graded"] * 3
    assert page.locator("#results .summary").inner_text() == (
        "1/1 tests passed (3 not graded: the exercise has a bug) — all good!")
    assert page.locator("#results .score").inner_text() == "Score: 1 of 1 point"

    # A test's own limit runs out in it: that test is the exercise's error, and the test after it still runs.
    page.wait_for_function("window.runner.isWarm()", timeout=PYTHON_READY_MS)
    set_time_limit(page, 60)
    report = grade_in_page(page, SOLUTION)
    assert [(t["status"], t["message"]) for t in report["tests"]] == [
        ("passed", ""), ("error", RAISED), ("error", stopped_in_tests(f"{TEST_LIMIT:g} s, the limit for one test")),
        ("passed", "")]
    assert [bool(t.get("exercise_bug")) for t in report["tests"]] == [False, True, True, False]
    assert (report["score"], report["max_score"], report["passed"]) == (2, 2, True)
    # A wrong solution still fails the tests that check it: the exercise's bug gives nothing away.
    wrong = grade_in_page(page, SOLUTION.replace("return pe", "return pe.T"))
    assert (wrong["score"], wrong["max_score"], wrong["passed"]) == (0, 2, False)

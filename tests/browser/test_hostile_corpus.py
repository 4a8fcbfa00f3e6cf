"""The submission corpus (correct, wrong and hostile) graded by window.gradeSubmission on one page.

Each case must get the verdict its header asks for, within its time limit plus
a margin, and the page must keep grading the next one: a timeout or a crash of
the Pyodide worker costs a fresh worker, never the page.
"""

import time

import pytest

from corpus_cases import load_cases, problems
from page_helpers import grade_in_page, set_time_limit

TIME_LIMIT = 3
# A worker killed for its time limit or a crash is replaced; its replacement loads Pyodide again.
MARGIN = 30
CASES = [case for case in load_cases("sinusoidal_pe") if not case.offline_only]


@pytest.fixture(scope="module")
def shared_page(browser, base_url):
    """One page for the whole corpus, so each case also proves the page survived the one before."""
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base_url}/exercises/sinusoidal_pe/")
    page.wait_for_function("document.getElementById('runtime-status').textContent === 'Python ready'",
                           timeout=120_000)
    set_time_limit(page, TIME_LIMIT)
    yield page
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_corpus_case_in_the_browser(shared_page, case):
    started = time.monotonic()
    report = grade_in_page(shared_page, case.source)
    elapsed = time.monotonic() - started
    assert problems(case, report) == []
    assert elapsed < TIME_LIMIT + MARGIN

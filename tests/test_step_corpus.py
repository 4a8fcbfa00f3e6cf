"""Submissions of our own for the steps that build on others (tests/corpus/<exercise>/, sinusoidal_pe aside, which
tests/test_cli_check.py grades through the CLI): honest alternatives pass and classic mistakes fail, graded offline
as marks are, in the real sandbox with the references of the used steps in scope."""

import pytest

from corpus_cases import CORPUS_DIR, load_cases, problems
from grader.checker.remote import Limits
from grader.checker.sandbox import Sandbox
from grader.checker.supervisor import Grader
from grader.exercise import load_exercise
from grader.track import reference_steps

EXERCISE_IDS = sorted(p.name for p in CORPUS_DIR.iterdir() if p.is_dir() and p.name != "sinusoidal_pe")


@pytest.fixture(scope="module")
def sandbox():
    box = Sandbox("bwrap")
    yield box
    box.close()


@pytest.mark.parametrize("exercise_id", EXERCISE_IDS)
def test_every_case_gets_its_verdict_offline(exercise_id, sandbox):
    exercise = load_exercise(exercise_id)
    cases = load_cases(exercise_id)
    grader = Grader(exercise.grading_spec(), Limits(time_limit=exercise.time_limit), sandbox,
                    earlier=reference_steps(exercise))
    reports = dict(grader.grade_all([(case.name, case.source) for case in cases], jobs=2))
    wrong = {case.name: problems(case, reports[case.name]) for case in cases if problems(case, reports[case.name])}
    assert wrong == {}

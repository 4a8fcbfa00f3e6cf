"""Submissions of our own for the steps that build on others (tests/corpus/<exercise>/, sinusoidal_pe aside, which
tests/test_cli_check.py grades through the CLI and tests/browser/test_parity.py in the page): honest alternatives
pass and classic mistakes fail, graded offline as marks are, in the real sandbox with the references of the used
steps in scope; and the page, grading them with what its grading.json gives (the references in scope, as for a
learner who has not passed those steps) in the site's Pyodide, says the same words, test by test: the capstone's
steps and errors raised inside an earlier step included."""

import pytest

from corpus_cases import CORPUS_DIR, load_cases, problems
from grader.authoring.validate import pyodide_dist
from grader.checker.remote import Limits
from grader.checker.sandbox import Sandbox
from grader.checker.supervisor import Grader, load_test_names
from grader.core.engine import EarlierStep, GradingSpec
from grader.exercise import load_exercise
from grader.pyodide.run import grade_in_pyodide
from grader.track import reference_steps, used_steps
from sitebuild.data import grading_data

EXERCISE_IDS = sorted(p.name for p in CORPUS_DIR.iterdir() if p.is_dir() and p.name != "sinusoidal_pe")
NODE_SECONDS = 600


@pytest.fixture(scope="module")
def offline():
    """{exercise id: {case name: report}} as offline grading gives them, each exercise graded once (by the first
    test that asks)."""
    box = Sandbox("bwrap")
    reports = {}

    def graded(exercise_id):
        if exercise_id not in reports:
            exercise = load_exercise(exercise_id)
            grader = Grader(exercise.grading_spec(), Limits(time_limit=exercise.time_limit), box,
                            earlier=reference_steps(exercise))
            cases = load_cases(exercise_id)
            reports[exercise_id] = dict(grader.grade_all([(case.name, case.source) for case in cases], jobs=2))
        return reports[exercise_id]
    yield graded
    box.close()


@pytest.mark.parametrize("exercise_id", EXERCISE_IDS)
def test_every_case_gets_its_verdict_offline(exercise_id, offline):
    reports = offline(exercise_id)
    wrong = {case.name: problems(case, reports[case.name]) for case in load_cases(exercise_id)
             if problems(case, reports[case.name])}
    assert wrong == {}


def page_job(exercise_id):
    """What the page grades a step's cases with: the spec and the used steps' references from its grading.json."""
    exercise = load_exercise(exercise_id)
    data = grading_data(exercise, load_test_names(exercise.grading_spec()), used_steps(exercise))
    spec = GradingSpec(**{name: data[name] for name in GradingSpec.__dataclass_fields__})
    earlier = [EarlierStep(used["exercise_id"], used["entry"], used["step"], used["reference"], tuple(used["uses"]))
               for used in data["uses"]]  # in-scope.js: the reference where the learner has no passing code
    sources = {case.name: case.source for case in load_cases(exercise_id) if not case.offline_only}
    return {"spec": spec, "earlier": earlier, "sources": sources}


def words(report):
    return {"error": report["error"], "passed": report["passed"],
            "tests": [(test["name"], test["status"], test["message"]) for test in report["tests"]]}


def test_the_page_says_what_offline_grading_says(offline):
    jobs = [page_job(exercise_id) for exercise_id in EXERCISE_IDS]
    in_page = grade_in_pyodide(pyodide_dist(), jobs, NODE_SECONDS)
    different = {}
    for exercise_id, page_reports in zip(EXERCISE_IDS, in_page):
        for name, report in page_reports.items():
            if words(report) != words(offline(exercise_id)[name]):
                different[f"{exercise_id}/{name}"] = {"page": words(report), "offline": words(offline(exercise_id)[name])}
    assert different == {}
    assert "wrong_t_incremented_after" in in_page[EXERCISE_IDS.index("train_step")]

"""Every shipped exercise: it loads, its reference passes, its starter does not, every mutant is caught."""

import pytest

from grader.exercise import load_all
from grader.checker.supervisor import Limits, grade_isolated
from grader.track import reference_steps

EXERCISES = load_all()
POSITIONAL_ENCODING_FAMILY = {"sinusoidal_pe", "relative_shift", "position_similarity", "rope", "alibi_bias"}


def grade(exercise, source):
    return grade_isolated(exercise.grading_spec(), source, Limits(time_limit=exercise.time_limit),
                          earlier=reference_steps(exercise))


def test_the_positional_encoding_family_ships():
    assert {e.id for e in EXERCISES} >= POSITIONAL_ENCODING_FAMILY


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_reference_passes_every_test(exercise):
    report = grade(exercise, exercise.solution)
    assert report["passed"], [(t["name"], t["message"]) for t in report["tests"] if t["status"] != "passed"]


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_starter_does_not_pass(exercise):
    assert not grade(exercise, exercise.starter)["passed"]


@pytest.mark.parametrize("exercise, mutant", [(e, m) for e in EXERCISES for m in e.mutants],
                         ids=lambda v: v if isinstance(v, str) else v.id)
def test_every_mutant_is_caught(exercise, mutant):
    report = grade(exercise, exercise.mutants[mutant])
    assert report["error"] is None, "a mutant should load and be caught by a test"
    assert any(t["status"] in ("failed", "error") for t in report["tests"])


@pytest.mark.parametrize("exercise", [e for e in EXERCISES if e.id in POSITIONAL_ENCODING_FAMILY], ids=lambda e: e.id)
def test_the_family_ships_at_least_four_mutants_each(exercise):
    assert len(exercise.mutants) >= 4

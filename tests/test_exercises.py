"""What the catalogue ships besides valid exercises: the positional-encoding family, each with enough mutants.

That every shipped exercise is valid (its reference passes, its starter does not, every mutant is caught, graded
twice in the sandbox) is tests/test_validate.py's test_shipped_exercises_are_valid.
"""

import pytest

from grader.exercise import load_all

EXERCISES = load_all()
POSITIONAL_ENCODING_FAMILY = {"sinusoidal_pe", "relative_shift", "position_similarity", "rope", "alibi_bias"}


def test_the_positional_encoding_family_ships():
    assert {e.id for e in EXERCISES} >= POSITIONAL_ENCODING_FAMILY


@pytest.mark.parametrize("exercise", [e for e in EXERCISES if e.id in POSITIONAL_ENCODING_FAMILY], ids=lambda e: e.id)
def test_the_family_ships_at_least_four_mutants_each(exercise):
    assert len(exercise.mutants) >= 4

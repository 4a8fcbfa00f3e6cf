"""Accepted variants: other correct solutions, in accepted/*.py, that every hidden test must pass.

A variant is an honest different way to the same result (another formula, another order of
operations, another but equivalent use of the random generator): it proves the tests are fair to
it.  `validate` grades each like a mutant (twice, and in Pyodide with --pyodide) and fails when one
does not pass every test, or does not start with a comment saying how it differs.
"""

from grader.exercise import ExerciseError
from grader.exercise_rules import MUTANT_HEADER

LABEL_PREFIX = "accepted/"  # the label of a variant's runs, so that it cannot clash with a mutant's


def accepted_jobs(exercise):
    """(label, source) of each accepted variant, to grade beside the mutants."""
    return [(LABEL_PREFIX + name, source) for name, source in exercise.accepted.items()]


def check_accepted(exercise, runs, result):
    """Record the check that every accepted variant starts with a comment and passes every test."""
    if not exercise.accepted:
        return
    problems = []
    for name, source in exercise.accepted.items():
        path = exercise.path / "accepted" / name
        run = runs[LABEL_PREFIX + name][0]
        if not MUTANT_HEADER.match(source):
            problems.append(str(ExerciseError(path, "an accepted variant starts with a comment saying how it "
                                                    "differs from the reference, e.g. '# Draws the mask with "
                                                    "rng.random() < keep instead of rng.binomial.'", 1)))
        if run.error is not None:
            problems.append(str(ExerciseError(path, f"the accepted variant does not load: {run.error}")))
        # A test that failed in its own code is the tests' problem, named once by own_code_problems.
        problems += [str(ExerciseError(path, f"the accepted variant fails test {test.name!r} ({test.status}): "
                                             f"{test.message}")) for test in run.tests
                     if test.status != "passed" and test.test_code_error is None]
    passing = sum(runs[LABEL_PREFIX + name][0].passed for name in exercise.accepted)
    result.check(f"accepted variants: {passing}/{len(exercise.accepted)} pass every test", problems)

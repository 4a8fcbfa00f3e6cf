"""Validate exercises for the build, remembering on disk which ones passed.

A cache entry's key is everything a validation verdict depends on:
- the exercise's grading inputs: its id, entry and time_limit, starter.py,
  solution.py, tests.py, mutants/*.py and accepted/*.py (names and sources), as loaded, and
  the references of the earlier steps it uses (graded with it, in scope);
- the grader's own code (every .py file of the grader package) and the Python
  and numpy it runs on.
- the statement's runnable examples (grader/authoring/statement_examples.py), run against the reference.
The rest of the statement, the hints, how_it_works.md, title and the other page metadata are left out on
purpose: validation only checks that they render and that the statement's images and links are
found, and the build does that again itself every time, failing on the same errors. So an edit to a
statement's prose (or to how_it_works.md, added or removed) re-validates nothing and shows on the next build. Only a passed validation is stored.
"""

import json
import sys
from pathlib import Path

import numpy

import grader
from grader.authoring.statement_examples import find_examples
from grader.track import reference_steps
from grader.authoring.validate import validate_exercise
from sitebuild import BuildError
from sitebuild.cache import digest, files_digest


class Validator:
    """Runs `validate_exercise` on each exercise unless the cache says the same inputs passed before."""

    def __init__(self, cache):
        self.cache = cache  # a DiskCache
        self.environment = digest(files_digest(Path(grader.__file__).parent, ["**/*.py"]),
                                  sys.version, numpy.__version__)
        self.validated, self.from_cache = [], []

    def passed_before(self, exercise):
        """Whether the cache says `exercise`, as it is now, passed its validation."""
        if self.cache.get(digest(self.environment, grading_inputs(exercise))) is None:
            return False
        self.from_cache.append(exercise.id)
        return True

    def check(self, exercise):
        """Return if `exercise` is valid; BuildError naming the first problem if not."""
        if self.passed_before(exercise):
            return
        key = digest(self.environment, grading_inputs(exercise))
        validation = validate_exercise(exercise)
        if not validation.ok:
            # Line by line (a traceback stays readable in the terminal and the preview's bar), spaces kept.
            first = "\n".join(line.rstrip() for line in validation.problems[0].strip().splitlines())
            raise BuildError(f"{first} (`python -m grader validate {exercise.id}` gives the full report)")
        self.cache.put(key, {"exercise": exercise.id})
        self.validated.append(exercise.id)


def grading_inputs(exercise):
    """The parts of an Exercise that validation grades with, as one canonical string."""
    return json.dumps({
        "id": exercise.id, "entry": exercise.entry, "time_limit": exercise.time_limit,
        "starter": exercise.starter, "solution": exercise.solution, "tests": exercise.tests_source,
        "track_helpers": exercise.track_helpers,
        "mutants": exercise.mutants, "accepted": exercise.accepted,
        "earlier": [step.to_dict() for step in reference_steps(exercise)],
        "examples": [example.code for example in find_examples(exercise.statement)[0]],
    }, sort_keys=True)

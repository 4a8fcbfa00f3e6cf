"""Manual overrides of graded points (`--overrides FILE`): a CSV file an instructor writes.

    student,exercise,test,points,reason
    12345,softmax,,6,"regraded by hand: the shape test was too strict"
    ada,attention,Masked positions get zero weight,1,accepted a -1e9 mask

`student` is the student's id (or, for a class without ids, the submission's name); `test` is optional:
empty, `points` are the exercise's points (before its weight); given, that test's points.  Every row is
checked against the results (`check`): an unknown student, exercise or test, points out of range, a row
given twice or a missing reason is an error naming the file and the line.  Overrides change the outputs
only (grader/instructor/outputs/adjustments.py), each shown as an override with its reason; the results keep the
points as graded.
"""

import dataclasses
import math

from grader.instructor.records import student_key
from grader.instructor.tables import TableError, read_table, shown_value
from grader.submission import display

COLUMNS = ("student", "exercise", "test", "points", "reason")
REQUIRED = ("student", "exercise", "points", "reason")


class OverrideError(Exception):
    """An overrides file that cannot be used; the message names the file and the line."""


@dataclasses.dataclass(frozen=True)
class Override:
    line: int
    student: str
    exercise: str
    test: str | None   # None: the whole exercise
    points: float
    reason: str


def load_overrides(path):
    """The rows of the overrides file at `path`, their format checked; OverrideError naming the line."""
    shown = display(path)
    try:
        rows = read_table(path, {column: (column,) for column in COLUMNS}, REQUIRED, strict=True)
    except TableError as exc:
        raise OverrideError(str(exc)) from None
    overrides, seen = [], {}
    for number, cells in rows:
        def error(message, number=number):
            return OverrideError(f"{shown}:{number}: {message}")

        for column in ("student", "exercise", "reason"):
            if not cells[column]:
                raise error(f"{column} is empty" + (" (say why the points change)" if column == "reason" else ""))
        given = cells["points"] or ""
        try:
            points = float(given)
        except ValueError:
            points = math.nan
        if not 0 <= points < math.inf:
            raise error(f"points should be a number of points, 0 or more, not {shown_value(given)}")
        override = Override(number, cells["student"], cells["exercise"], cells["test"], points,
                            cells["reason"])
        key = (override.student, override.exercise, override.test)
        if key in seen:
            raise error(f"overrides the same points as line {seen[key]}")
        other = [k for k in seen if k[:2] == key[:2] and (k[2] is None) != (override.test is None)]
        if other:
            raise error(f"overrides the whole exercise and one of its tests (line {seen[other[0]]}) for the same "
                        "student; keep one")
        seen[key] = number
        overrides.append(override)
    return overrides


def check(overrides, records, path):
    """OverrideError naming the line of the first override that names a student, an exercise or a test the
    results do not have, or gives more points than there are."""
    if not overrides:
        return
    shown = display(path)
    by_key = {(student_key(record), record["exercise"]): record for record in records}
    students = {student for student, _ in by_key}
    exercises = {exercise for _, exercise in by_key}
    for override in overrides:
        def error(message):
            return OverrideError(f"{shown}:{override.line}: {message}")

        if override.student not in students:
            raise error(f"no student {shown_value(override.student)} in the results (a student id, or the "
                        "submission's name)")
        if override.exercise not in exercises:
            raise error(f"no exercise {shown_value(override.exercise)} in the results ({', '.join(sorted(exercises))})")
        record = by_key.get((override.student, override.exercise))
        if record is None:
            raise error(f"student {shown_value(override.student)} has no result for {shown_value(override.exercise)}")
        if override.test is None:
            most = record["max_score"]
        else:
            test = next((t for t in record["tests"] if t["name"] == override.test), None)
            if test is None:
                names = ", ".join(repr(t["name"]) for t in record["tests"])
                raise error(f"{shown_value(override.exercise)} has no test {shown_value(override.test)} "
                            f"(its tests: {names})")
            most = test["max_score"]
        if override.points > most:
            raise error(f"{override.points:g} points is more than the {most:g} there are")

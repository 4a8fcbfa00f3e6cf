"""Submission times given by the instructor (`--times FILE`): a CSV of student id and ISO 8601 time.

    id,submitted_at
    10000,2026-11-20T23:59:00+01:00

They replace any time the export has.  A time needs its offset (or Z): a time without one would be read
in whichever zone the grading machine is in.
"""

import dataclasses
import datetime

from grader.instructor.records import student_key
from grader.instructor.tables import TableError, read_table

COLUMNS = {"id": ("id", "student id", "sid", "user id"), "submitted_at": ("submitted at", "submitted", "time")}


def read_times(path):
    """{student id: ISO 8601 time}, each checked; TableError naming file:line."""
    times, lines = {}, {}
    for line, row in read_table(path, COLUMNS, tuple(COLUMNS)):
        if not row["id"] or not row["submitted_at"]:
            raise TableError(f"{path}:{line}: needs an id and a submitted_at time")
        if row["id"] in lines:
            raise TableError(f"{path}:{line}: id {row['id']!r} is already on line {lines[row['id']]}")
        try:
            when = datetime.datetime.fromisoformat(row["submitted_at"])
        except ValueError:
            raise TableError(f"{path}:{line}: {row['submitted_at']!r} is not an ISO 8601 time "
                             "(e.g. 2026-11-20T23:59:00+01:00)") from None
        if when.tzinfo is None:
            raise TableError(f"{path}:{line}: {row['submitted_at']!r} has no offset (add +00:00, Z or the "
                             "zone's offset)")
        lines[row["id"]] = line
        times[row["id"]] = when.isoformat()
    return times


def with_times(learners, times):
    """`learners` with the submission times of `times` ({student id: time}), and the ids of `times` that
    are no learner's."""
    return _timed(learners, times, lambda learner: learner.about["student"]["id"],
                  lambda learner, when: dataclasses.replace(learner, about={**learner.about, "submitted_at": when}))


def records_with_times(records, times):
    """Results records with the submission times of `times` (`report --times`), and the ids of `times` that are
    no record's student."""
    return _timed(records, times, student_key, lambda record, when: {**record, "submitted_at": when})


def _timed(items, times, student_id, timed):
    used, result = set(), []
    for item in items:
        if student_id(item) in times:
            used.add(student_id(item))
            item = timed(item, times[student_id(item)])
        result.append(item)
    return result, sorted(set(times) - used)

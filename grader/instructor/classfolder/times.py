"""Submission times given by the instructor (`--times FILE`): a CSV of student id and ISO 8601 time.

    id,submitted_at
    10000,2026-11-20T23:59:00+01:00

They replace any time the export has.  A time needs its offset (or Z): a time without one would be read
in whichever zone the grading machine is in.
"""

import dataclasses
import datetime

from grader.instructor.records import student_key
from grader.instructor.tables import TableError, read_table, shown_value
from grader.submission import display

COLUMNS = {"id": ("id", "student id", "sid", "user id"), "submitted_at": ("submitted at", "submitted", "time")}


def read_times(path):
    """{student id: ISO 8601 time}, each checked; TableError naming file:line."""
    times, lines, shown = {}, {}, display(path)
    for line, row in read_table(path, COLUMNS, tuple(COLUMNS)):
        if not row["id"] or not row["submitted_at"]:
            raise TableError(f"{shown}:{line}: needs an id and a submitted_at time")
        if row["id"] in lines:
            raise TableError(f"{shown}:{line}: id {shown_value(row['id'])} is already on line {lines[row['id']]}")
        given = shown_value(row["submitted_at"])
        try:
            when = datetime.datetime.fromisoformat(row["submitted_at"])
            when.astimezone(datetime.timezone.utc)  # a time at the end of year 9999 has no UTC time
        except ValueError:
            raise TableError(f"{shown}:{line}: {given} is not an ISO 8601 time "
                             "(e.g. 2026-11-20T23:59:00+01:00)") from None
        except OverflowError:
            raise TableError(f"{shown}:{line}: {given} is out of range") from None
        if when.tzinfo is None:
            raise TableError(f"{shown}:{line}: {given} has no offset (add +00:00, Z or the zone's offset)")
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

"""An assignment's due date and late policy, and what a late submission loses.

In the assignment file (grader/instructor/assignment.py):

    due = 2026-11-20T23:59:00+01:00   # with its time zone
    [late]
    grace_minutes = 15                # optional (default 0): this little after the due date is on time
    penalty_per_day = 0.1             # the fraction of the points lost per day late (a part of a day counts whole)
    max_penalty = 0.5                 # optional (default 1): the most it takes
    [late.extensions]                 # optional: a student's own due date, by student id
    "12345" = 2026-11-22T23:59:00+01:00

Days late count from the student's due date; the grace period only forgives.  A submission's time is the
record's `submitted_at` (from the LMS export or a times file); without one it is on time, unless the LMS
marked it late (`late_marker`): then one day's penalty applies, and the note says why.  The penalty is
applied when outputs are written; the records keep the points as graded.
"""

import dataclasses
import datetime
import math

from grader.instructor.tables import TableError, check_text, shown_value

DAY = datetime.timedelta(days=1)
LATE_KEYS = ("grace_minutes", "penalty_per_day", "max_penalty", "extensions")


@dataclasses.dataclass(frozen=True)
class Lateness:
    days: int
    fraction: float   # of the points taken
    note: str         # for the student and the instructor


@dataclasses.dataclass(frozen=True)
class LatePolicy:
    due: datetime.datetime
    grace: datetime.timedelta = datetime.timedelta(0)
    per_day: float = 0.0       # no [late] table: late work is shown, not penalised
    cap: float = 1.0
    extensions: dict = dataclasses.field(default_factory=dict)   # student id -> their due date

    def lateness(self, student_id, submitted_at, late_marker):
        """The Lateness of a submission at `submitted_at` (ISO 8601 text, or None: unknown), or None if on time."""
        due = self.extensions.get(student_id, self.due)
        extended = " (extended)" if student_id in self.extensions else ""
        if submitted_at is None:
            if not late_marker:
                return None
            days, when = 1, "marked late by the LMS, time unknown: one day's penalty"
        else:
            late_by = datetime.datetime.fromisoformat(submitted_at) - due
            if late_by <= self.grace:
                return None
            days = math.ceil(late_by / DAY)
            when = f"submitted {_shown(submitted_at)}, {days} day(s) after the due date{extended} {due.isoformat()}"
        fraction = min(self.cap, self.per_day * days)
        return Lateness(days, fraction, f"late: {when}; {100 * fraction:g}% of the points taken")


def _shown(text):
    return datetime.datetime.fromisoformat(text).isoformat()


def parse_policy(raw, error):
    """The LatePolicy of an assignment file's `due` and `[late]` (tomllib values), or None without `due`.
    `error(key, message)` makes the exception to raise, naming the line of `key` (a dotted key for a
    student's extension: ("late.extensions", id))."""
    due, late = raw.get("due"), raw.get("late")
    if due is None:
        if late is not None:
            raise error("late", "a late policy needs the due date: add due = 2026-11-20T23:59:00+01:00")
        return None
    due = _moment(due, lambda message: error("due", f"due {message}"))
    if late is None:
        return LatePolicy(due)
    if not isinstance(late, dict):
        raise error("late", "late should be a table: [late] then grace_minutes, penalty_per_day, max_penalty")
    for key in late:
        if key not in LATE_KEYS:
            raise error(key, f"unknown key {key!r} in [late] (known keys: {', '.join(LATE_KEYS)})")
    if "penalty_per_day" not in late:
        raise error("late", "[late] needs penalty_per_day: the fraction of the points lost per day late (e.g. 0.1)")
    grace = _number(late, "grace_minutes", 0, 0, 60 * 24 * 365, error)
    per_day = _number(late, "penalty_per_day", None, 0, 1, error)
    cap = _number(late, "max_penalty", 1, 0, 1, error)
    extensions = late.get("extensions", {})
    if not isinstance(extensions, dict):
        raise error("extensions", "extensions should be a table: [late.extensions] then \"student id\" = a date")
    own = {}
    for student, when in extensions.items():
        def extension_error(message, student=student):
            return error(("late.extensions", student), f"extension of {shown_value(student)} {message}")

        try:
            check_text(student, "the student id")
        except TableError as exc:
            raise extension_error(f"has a bad student id: {exc}") from None
        own[student] = _moment(when, extension_error)
    return LatePolicy(due, datetime.timedelta(minutes=grace), per_day, cap, own)


def _moment(value, error):
    if not isinstance(value, datetime.datetime) or value.tzinfo is None:
        shown = value.isoformat() if isinstance(value, (datetime.date, datetime.time)) else shown_value(value)
        raise error(f"should be a date and time with its time zone, like 2026-11-20T23:59:00+01:00, not {shown}")
    try:
        value.astimezone(datetime.timezone.utc)  # the end of year 9999 west of UTC has no UTC time
    except OverflowError:
        raise error(f"is out of range: {value.isoformat()}") from None
    return value


def _number(table, key, default, low, high, error):
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise error(key, f"{key} should be a number from {low:g} to {high:g}, not {value!r}")
    return value

"""What a results record is, checked field by field by every reader of a results file.

A batch writes one record per learner and exercise (grader/instructor/batch.py); the batch
resuming, `grader report` and `grader gradescope` read them back.  A file may
have been edited or damaged since, so each record read is checked in full:
every field there and of its type, numbers finite and in range (0 <= score <=
max_score, scores adding up, `passed` agreeing with the tests, a test marked
`exercise_bug` an error that earns nothing and is left out of max_score, as
grader/core/report.py makes it; the student's
id, name, email and login, the submission time with its offset), texts valid
Unicode and of bounded size, no unknown field.  `record_problem` says which
field is wrong, so a bad file is refused with one line naming it, before
anything is made from it.

A record may have `notes`: what the feedback says about the file besides the tests (a notebook's IPython
lines dropped, grader/notebook.py), a list of texts.

A record from a CSV results file holds less (no messages, no output, no points
per test): `complete=False` checks what it has.

A JSON Lines record also carries `results_sha256`, a checksum of what it says
was graded (everything but the checksum, the timings, and the student's identity and
submission time, which an LMS export or a roster may fill in again): a record
edited by hand (a score, a status, a message) no longer matches it and is
refused, so a grade cannot change silently; overrides go in an overrides file
(grader/instructor/overrides.py), shown as such.  It is a check against edits, not a
signature: whoever recomputes it can forge a record.

Fields of the student's identity and time (written by the batch where the
class folder gives them), optional: `student` ({"id", "name", "email",
"login"}, and from a roster "in_roster", "sis_id", "section"), `submitted_at` (ISO 8601 with its offset, or null),
`late_marker` (true when the LMS marked the submission late) and `reupload` ({"graded": the file graded,
"superseded": [its earlier uploads]}, when the student uploaded it again: Canvas's softmax-1.py).
"""

import datetime
import hashlib
import json
import math
import re

from grader.core.report import MESSAGE_LIMIT, STATUSES, STDOUT_LIMIT, TRUNCATED, passes

SHA256 = re.compile(r"[0-9a-f]{64}")
EXERCISE_ID = re.compile(r"[a-z][a-z0-9_]*")  # as grader/exercise.py requires
NAME_LIMIT = 4096                  # characters of a learner's or a test's name
TEXT_LIMIT = MESSAGE_LIMIT + 1000  # a message or an error (cut to MESSAGE_LIMIT, plus a few words around it)
OUTPUT_LIMIT = STDOUT_LIMIT + len(TRUNCATED)
SHORT_LIMIT = 100                  # graded_at, grader_version
MAX_TESTS = 10_000
MAX_NOTES = 10_000
MAX_POINTS = 1e9                   # a record's max_score: far above any exercise, far from overflowing a total
MAX_DURATION_MS = 1e9
IDENTITY = ("student", "submitted_at", "late_marker", "reupload")  # not in the checksum: a later batch may fill them in
MAX_SUPERSEDED = 2000  # a hand-in's files (grader/instructor/classfolder/walk.py)
STUDENT_KEYS = {"id", "name", "email", "login"}
STUDENT_OPTIONAL = {"in_roster", "sis_id", "section"}  # from a roster


def results_checksum(record):
    """The `results_sha256` of `record`: a SHA-256 of its canonical JSON, without the checksum, IDENTITY and the
    timings (`graded_at`, each test's `duration_ms`), so that two gradings of the same files agree on it."""
    graded = {key: value for key, value in record.items() if key not in ("results_sha256", "graded_at", *IDENTITY)}
    if isinstance(graded.get("tests"), list):
        graded["tests"] = [{key: value for key, value in test.items() if key != "duration_ms"}
                           if isinstance(test, dict) else test for test in graded["tests"]]
    text = json.dumps(graded, sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def student_key(record):
    """Who a record is about: the student's id where the class folder gives one, else the submission's name."""
    return record["student"]["id"] if record.get("student") else record["submission"]


class _Problem(Exception):
    """The field `field` of a record is not what it should be (`what`)."""

    def __init__(self, field, what):
        super().__init__(f"{field}: {what}")


def record_problem(record, complete=True):
    """What makes `record` not a results record (the field and why, one line), or None."""
    try:
        _check_record(record, complete)
    except _Problem as problem:
        return str(problem)
    return None


def _check_record(record, complete):
    if type(record) is not dict:
        raise _Problem("the record", "should be a JSON object")
    required = {"submission", "exercise", "submission_sha256", "tests_sha256", "graded_at", "grader_version",
                "passed", "error", "score", "max_score", "tests"}
    if complete:
        required |= {"stdout", "results_sha256"}
    optional = {"missing", "notes", *IDENTITY}
    for key in sorted(required - set(record)):
        raise _Problem(key, "missing")
    for key in sorted(set(record) - required - optional):
        raise _Problem(_shown(key), "not a field of a results record")
    _text(record, "submission", NAME_LIMIT, empty=False)
    if type(record["exercise"]) is not str or not EXERCISE_ID.fullmatch(record["exercise"]):
        raise _Problem("exercise", f"should be an exercise id, not {_shown(record['exercise'])}")
    for key in ("submission_sha256", "tests_sha256"):
        value = record[key]
        if not (value is None and key == "submission_sha256") and not (type(value) is str and SHA256.fullmatch(value)):
            raise _Problem(key, f"should be a SHA-256 in hexadecimal, not {_shown(value)}")
    _text(record, "graded_at", SHORT_LIMIT, empty=False)
    try:
        datetime.datetime.fromisoformat(record["graded_at"])
    except ValueError:
        raise _Problem("graded_at", f"should be a date and time, not {_shown(record['graded_at'])}") from None
    _text(record, "grader_version", SHORT_LIMIT, empty=False)
    if type(record["passed"]) is not bool:
        raise _Problem("passed", f"should be true or false, not {_shown(record['passed'])}")
    _text(record, "error", TEXT_LIMIT, none=True)
    if complete:
        _text(record, "stdout", OUTPUT_LIMIT)
    if "missing" in record:
        _text(record, "missing", TEXT_LIMIT, empty=False)
    if "notes" in record:
        notes = record["notes"]
        if type(notes) is not list or len(notes) > MAX_NOTES:
            raise _Problem("notes", f"should be a list of at most {MAX_NOTES} texts")
        for index in range(len(notes)):
            _text(notes, index, TEXT_LIMIT, empty=False, where="notes")
    if ("missing" in record) != (record["submission_sha256"] is None):
        raise _Problem("missing", "a record has either 'missing' (the file was not graded) or a "
                                  "'submission_sha256', and not both")
    _check_who_and_when(record)
    max_score = _points(record, "max_score", MAX_POINTS)
    score = _points(record, "score", max_score)
    tests = record["tests"]
    if type(tests) is not list or len(tests) > MAX_TESTS:
        raise _Problem("tests", f"should be a list of at most {MAX_TESTS} tests")
    names = set()
    for index, test in enumerate(tests):
        _check_test(test, f"tests[{index}]", complete)
        if test["name"] in names:
            raise _Problem(f"tests[{index}].name", "the same as an earlier test's")
        names.add(test["name"])
    if record["passed"] != passes(record["error"], tests):
        raise _Problem("passed", "disagrees with the error and the tests' statuses")
    if complete:
        graded = sum(t["max_score"] for t in tests if not t.get("exercise_bug"))
        if not math.isclose(max_score, graded, rel_tol=1e-9, abs_tol=1e-9):
            raise _Problem("max_score", "is not the sum of the max_score of the tests graded (not exercise_bug)")
        if not math.isclose(score, sum(t["score"] for t in tests), rel_tol=1e-9, abs_tol=1e-9):
            raise _Problem("score", "is not the sum of the tests' score")
    if complete and record["results_sha256"] != results_checksum(record):
        raise _Problem("results_sha256", "does not match the record: it was edited after grading (to change "
                                         "points, use an overrides file, --overrides; or grade again)")


def _check_who_and_when(record):
    """The hand-in's student, time and LMS late marker (grader/instructor/classfolder/), when the record has them."""
    if "student" in record:
        student = record["student"]
        if type(student) is not dict:
            raise _Problem("student", "should be a JSON object")
        for key in sorted(STUDENT_KEYS - set(student)):
            raise _Problem(f"student.{key}", "missing")
        for key in sorted(set(student) - STUDENT_KEYS - STUDENT_OPTIONAL):
            raise _Problem(f"student.{_shown(key)}", "not a field of a student")
        for key in ("id", "name"):
            _text(student, key, NAME_LIMIT, empty=False, where="student")
        for key in ("email", "login", "sis_id", "section"):
            if key in student:
                _text(student, key, NAME_LIMIT, none=True, where="student")
        if "in_roster" in student and type(student["in_roster"]) is not bool:
            raise _Problem("student.in_roster", f"should be true or false, not {_shown(student['in_roster'])}")
    if record.get("submitted_at") is not None:
        _text(record, "submitted_at", SHORT_LIMIT, empty=False)
        try:
            aware = datetime.datetime.fromisoformat(record["submitted_at"]).tzinfo is not None
        except ValueError:
            aware = False
        if not aware:
            raise _Problem("submitted_at", f"should be a date and time with its offset, not "
                                           f"{_shown(record['submitted_at'])}")
    if "late_marker" in record and type(record["late_marker"]) is not bool:
        raise _Problem("late_marker", f"should be true or false, not {_shown(record['late_marker'])}")
    if "reupload" in record:
        reupload = record["reupload"]
        if type(reupload) is not dict or set(reupload) != {"graded", "superseded"}:
            raise _Problem("reupload", "should be a JSON object of 'graded' and 'superseded'")
        _text(reupload, "graded", NAME_LIMIT, empty=False, where="reupload")
        superseded = reupload["superseded"]
        if type(superseded) is not list or not 0 < len(superseded) <= MAX_SUPERSEDED:
            raise _Problem("reupload.superseded", f"should be a list of 1 to {MAX_SUPERSEDED} file names")
        for index in range(len(superseded)):
            _text(superseded, index, NAME_LIMIT, empty=False, where="reupload.superseded")


def _check_test(test, where, complete):
    if type(test) is not dict:
        raise _Problem(where, "should be a JSON object")
    keys = {"name", "status"} | ({"message", "duration_ms", "stdout", "score", "max_score"} if complete else set())
    for key in sorted(keys - set(test)):
        raise _Problem(f"{where}.{key}", "missing")
    for key in sorted(set(test) - keys - {"exercise_bug"}):
        raise _Problem(f"{where}.{_shown(key)}", "not a field of a test")
    _text(test, "name", NAME_LIMIT, empty=False, where=where)
    if test["status"] not in STATUSES:
        raise _Problem(f"{where}.status", f"should be one of {', '.join(STATUSES)}, not {_shown(test['status'])}")
    # Set by the engine alone (a test whose own code failed): not graded.
    if "exercise_bug" in test and (test["exercise_bug"] is not True or test["status"] != "error"):
        raise _Problem(f"{where}.exercise_bug", "should be true, on a test whose status is error, or absent")
    if not complete:
        return
    _text(test, "message", TEXT_LIMIT, where=where)
    _text(test, "stdout", OUTPUT_LIMIT, where=where)
    duration = test["duration_ms"]
    if type(duration) not in (int, float) or not 0 <= duration <= MAX_DURATION_MS:
        raise _Problem(f"{where}.duration_ms", f"should be a number of milliseconds from 0 to {MAX_DURATION_MS:g}, "
                                               f"not {_shown(duration)}")
    max_score = _points(test, "max_score", MAX_POINTS, where)
    score = _points(test, "score", max_score, where)
    if max_score == 0 or score != (max_score if test["status"] == "passed" else 0):
        raise _Problem(f"{where}.score", "a test earns its max_score (more than 0) when passed, 0 otherwise")


def _text(mapping, key, limit, empty=True, none=False, where=None):
    value = mapping[key]
    field = f"{where}.{key}" if where else key
    if value is None and none:
        return
    if type(value) is not str:
        raise _Problem(field, f"should be {'text or null' if none else 'text'}, not {_shown(value)}")
    if len(value) > limit or (not empty and not value):
        raise _Problem(field, f"should be text of {'1' if not empty else '0'} to {limit} characters "
                              f"(it has {len(value)})")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _Problem(field, "is not valid Unicode (it holds a lone surrogate)") from None


def _points(mapping, key, most, where=None):
    value = mapping[key]
    if type(value) not in (int, float) or not 0 <= value <= most:
        field = f"{where}.{key}" if where else key
        raise _Problem(field, f"should be a number of points from 0 to {most:g}, not {_shown(value)}")
    return value


def _shown(value):
    """`value`, briefly, as ASCII (whatever it holds)."""
    text = ascii(value)
    return text if len(text) <= 60 else text[:57] + "..."

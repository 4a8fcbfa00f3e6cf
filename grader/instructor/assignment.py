"""An assignment: the exercises a batch grades, what each weighs, and the file a student hands in for each.

From `--exercise` given once or more, or from an assignment file (TOML):

    title = "Week 3"            # optional
    file_pattern = "{id}.py"    # optional: a student's file for each exercise
    visibility = "visible"      # optional: when Gradescope shows a test (see VISIBILITIES)
    due = 2026-11-20T23:59:00+01:00   # optional, with [late]: the due date and late policy (grader/instructor/late.py)

    [[exercise]]
    id = "softmax"              # an exercise id, or a path to an exercise folder
    weight = 2                  # optional (default 1): its points count this many times in the total
    file = "my_softmax.py"      # optional: this exercise's file in each student's folder
    visibility = "hidden"       # optional: for every test of this exercise, over its exercise.toml's [visibility]

Problems are `AssignmentError`s naming the file and line.
"""

import dataclasses
import re
import tomllib
from pathlib import Path

from grader.exercise import VISIBILITIES, ExerciseError, load_exercise
from grader.instructor.late import LatePolicy, parse_policy
from grader.instructor.tables import TableError, check_text, read_text, shown_value
from grader.toml_lines import line_of, line_of_table, line_of_table_key, toml_error

DEFAULT_FILE_PATTERN = "{id}.py"
ASSIGNMENT_KEYS = ("title", "file_pattern", "visibility", "due", "late", "exercise")
EXERCISE_KEYS = ("id", "weight", "file", "visibility")
DEFAULT_VISIBILITY = "visible"
MAX_WEIGHT = 1e6  # weights times points stay far from overflowing a total
MAX_ASSIGNMENT_BYTES = 1_000_000
MAX_FILE_NAME_BYTES = 255  # a file name on Linux, macOS and Windows


class AssignmentError(Exception):
    """An assignment that cannot be used; the message names the file (and line) and says why."""


@dataclasses.dataclass(frozen=True)
class Part:
    exercise: object   # grader.exercise.Exercise
    weight: float
    file_name: str     # in each student's folder
    visibility: str = None  # for all its tests in Gradescope, over the exercise's own [visibility]


@dataclasses.dataclass(frozen=True)
class Assignment:
    title: str
    parts: tuple
    visibility: str = DEFAULT_VISIBILITY  # of a test neither its [[exercise]] nor its exercise.toml sets
    late: LatePolicy = None  # the due date and late policy, if the assignment has a due date

    def part(self, exercise_id):
        return next(part for part in self.parts if part.exercise.id == exercise_id)

    def test_visibility(self, exercise_id, test_name):
        """When Gradescope shows this test: its [[exercise]]'s visibility, else its exercise.toml's, else ours."""
        part = self.part(exercise_id)
        return part.visibility or part.exercise.visibility.get(test_name, self.visibility)


def from_exercises(names, file_pattern=DEFAULT_FILE_PATTERN):
    """The assignment of the exercises named on the command line, each weighing 1."""
    exercises = [load_exercise(name) for name in names]
    parts = [Part(exercise, 1, _file_name(file_pattern, exercise.id, "--file-pattern")) for exercise in exercises]
    _check_unique(parts, "--exercise")
    return Assignment(", ".join(e.id for e in exercises), tuple(parts))


def load_assignment(path):
    path = Path(path)
    try:
        text = read_text(path, MAX_ASSIGNMENT_BYTES, "an assignment file is at most 1 MB", "save it as UTF-8")
        raw = tomllib.loads(text)
    except TableError as exc:
        raise AssignmentError(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise AssignmentError(toml_error(path, exc)) from None
    except (ValueError, RecursionError) as exc:  # tomllib's own limits: an integer too long, nesting too deep
        raise AssignmentError(f"{path}: invalid TOML ({type(exc).__name__}: {str(exc)[:200]})") from None
    headers = [n for n, line in enumerate(text.splitlines(), 1) if re.match(r"\s*\[\[\s*exercise\s*\]\]", line)]

    def error(message, line=None):
        return AssignmentError(f"{path}{f':{line}' if line else ''}: {message}")

    for key in raw:
        if key not in ASSIGNMENT_KEYS:
            raise error(f"unknown key {shown_value(key)} (known keys: {', '.join(ASSIGNMENT_KEYS)})",
                        line_of(text, key))
    title = raw.get("title", path.stem)
    pattern = raw.get("file_pattern", DEFAULT_FILE_PATTERN)
    for key, value in (("title", title), ("file_pattern", pattern)):
        if not isinstance(value, str) or not value.strip():
            raise error(f"{key} should be a non-empty string, not {shown_value(value)}", line_of(text, key))
        _check_text(value, key, lambda message, key=key: error(message, line_of(text, key)))
    visibility = _visibility(raw.get("visibility", DEFAULT_VISIBILITY), "visibility",
                             lambda message: error(message, line_of(text, "visibility")))

    def policy_error(key, message):
        if isinstance(key, tuple):
            return error(message, line_of_table_key(text, *key))
        return error(message, line_of(text, key) or line_of_table(text, key))

    late = parse_policy(raw, policy_error)
    entries = raw.get("exercise")
    if not isinstance(entries, list) or not entries:
        raise error("lists no exercise: add an [[exercise]] table with an id for each")
    parts = []
    for number, entry in enumerate(entries):
        line = headers[number] if number < len(headers) else None
        parts.append(_part(entry, pattern, path, lambda message, line=line: error(message, line)))
    _check_unique(parts, str(path))
    return Assignment(title, tuple(parts), visibility, late)


def _part(entry, pattern, path, error):
    if not isinstance(entry, dict):
        raise error("each exercise should be an [[exercise]] table")
    for key in entry:
        if key not in EXERCISE_KEYS:
            raise error(f"unknown key {shown_value(key)} in [[exercise]] (known keys: {', '.join(EXERCISE_KEYS)})")
    name = entry.get("id")
    if not isinstance(name, str) or not name:
        raise error("[[exercise]] needs an id (an exercise id, or a path to an exercise folder)")
    _check_text(name, "id", error)
    weight = entry.get("weight", 1)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= MAX_WEIGHT:
        raise error(f"weight of {shown_value(name)} should be a positive number up to {MAX_WEIGHT:g}, "
                    f"not {shown_value(weight)}")
    beside = path.parent / name  # a path to an exercise folder is relative to the assignment file
    try:
        exercise = load_exercise(beside if (beside / "exercise.toml").is_file() else name)
    except ExerciseError as exc:
        raise error(f"exercise {shown_value(name)}: {exc}") from None
    file_name = entry.get("file")
    if file_name is None:
        file_name = _file_name(pattern, exercise.id, "file_pattern", error)
    elif not _is_file_name(file_name):
        raise error(f"file of {shown_value(name)} should be a file name without a folder, of at most "
                    f"{MAX_FILE_NAME_BYTES} bytes, not {shown_value(file_name)}")
    visibility = entry.get("visibility")
    if visibility is not None:
        visibility = _visibility(visibility, f"visibility of {shown_value(name)}", error)
    return Part(exercise, weight, file_name, visibility)


def _check_text(value, what, error):
    """`error(message)` unless `value` fits in a results record's name, with no control character."""
    try:
        check_text(value, what)
    except TableError as exc:
        raise error(str(exc)) from None


def _visibility(value, what, error):
    if value not in VISIBILITIES:
        raise error(f"{what} should be one of {', '.join(VISIBILITIES)}, not {shown_value(value)}")
    return value


def _file_name(pattern, exercise_id, where, error=None):
    try:
        name = pattern.format(id=exercise_id)
    except (KeyError, IndexError, ValueError) as exc:
        message = f"{where} {shown_value(pattern)} should use only {{id}} ({type(exc).__name__}: {exc})"
        raise (error(message) if error else AssignmentError(message)) from None
    if not _is_file_name(name):
        message = f"{where} {shown_value(pattern)} should give a file name without a folder, not {shown_value(name)}"
        raise error(message) if error else AssignmentError(message)
    return name


def _is_file_name(name):
    """A name a file can have, in one folder: not a path, not too long, no control character."""
    return (isinstance(name, str) and name not in ("", ".", "..") and "/" not in name
            and len(name.encode("utf-8", "surrogatepass")) <= MAX_FILE_NAME_BYTES
            and not any(ord(char) < 32 or ord(char) == 127 for char in name))


def _check_unique(parts, where):
    seen = set()
    for part in parts:
        if part.exercise.id in seen:
            raise AssignmentError(f"{where}: exercise {part.exercise.id!r} is listed twice")
        seen.add(part.exercise.id)
    files = [part.file_name for part in parts]
    if len(set(files)) < len(files):
        raise AssignmentError(f"{where}: two exercises would read the same file from each student's folder")

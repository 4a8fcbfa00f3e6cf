"""Load an exercise folder into an `Exercise`, checking its format.

An exercise is a folder `exercises/<id>/` holding:
    exercise.toml   metadata (see METADATA below)
    statement.md    the problem statement, Markdown with $...$ / $$...$$ math
    starter.py      what the learner's editor starts with
    solution.py     the reference solution
    tests.py        hidden tests: functions test_*(<entry>), docstring first line = name
    mutants/*.py    known-wrong solutions the hidden tests must reject
    accepted/*.py   other correct solutions the hidden tests must accept (optional)
    how_it_works.md the method behind the step, Markdown with math, shown once the learner passes (optional)

Every problem is reported as an `ExerciseError` naming the file (and the line,
where there is one) and what is wrong; every problem of exercise.toml at once
(`ExerciseErrors`), with "did you mean" for a misspelt key or value.
"""

import ast
import dataclasses
import difflib
import io
import math
import re
import tokenize
import tomllib
from pathlib import Path

from grader.core.engine import GradingSpec
from grader.submission import SubmissionError, read_bytes
from grader.toml_lines import line_of, line_of_table_key

EXERCISES_DIR = Path(__file__).resolve().parent.parent / "exercises"
DIFFICULTIES = ("Easy", "Medium", "Hard")
REVEAL_CHOICES = ("after-pass", "never")
# When Gradescope shows a test to the student (its results.json `visibility`).
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")

# key: (type, required, default)
METADATA = {
    "id": (str, True, None),
    "title": (str, True, None),
    "summary": (str, False, None),
    "difficulty": (str, True, None),
    "track": (str, True, None),
    "step": (int, True, None),
    "tags": (list, False, []),
    "entry": (str, True, None),
    "time_limit": ((int, float), False, 10),
    "test_time_limit": ((int, float), False, None),
    "reveal_solution": (str, False, "after-pass"),
    "hints": (list, False, []),
    "points": (dict, False, {}),
    "visibility": (dict, False, {}),
    "uses": (list, False, []),
    "part": (str, False, None),
    "draft": (bool, False, False),
    "hidden_formulas": (list, False, []),
}
REQUIRED_FILES = ("exercise.toml", "statement.md", "starter.py", "solution.py", "tests.py")
HOW_IT_WORKS_FILE = "how_it_works.md"
TRACK_HELPERS_FOLDER = "_track"  # <exercises>/_track/<track>.py: helpers a track's hidden tests import as `_track`
MAX_SUMMARY_CHARS = 120  # one line under the title on the index
MAX_FILE_BYTES = 1_000_000  # per file: far above any real exercise, small enough to load and compile at once


class ExerciseError(Exception):
    """A broken exercise: says which file (and line) and what is wrong."""

    def __init__(self, path, message, line=None):
        self.path, self.message, self.line = Path(path), message, line
        super().__init__(f"{where(self.path, line)}: {message}")

    @property
    def errors(self):
        """Each problem, as an ExerciseError."""
        return [self]


class ExerciseErrors(ExerciseError):
    """Several problems found together, one a line; `errors` lists them (the first gives path, message, line)."""

    def __init__(self, errors):
        first = errors[0]
        super().__init__(first.path, first.message, first.line)
        self._errors = list(errors)
        self.args = ("\n".join(str(error) for error in errors),)

    @property
    def errors(self):
        return self._errors


def where(path, line=None):
    """'path:line' (or 'path'), the path shown as problems show it."""
    return f"{_display(Path(path))}{f':{line}' if line else ''}"


def raise_all(errors):
    """Raise the ExerciseError of `errors`, or ExerciseErrors for several; nothing when there are none."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ExerciseErrors(errors)


def did_you_mean(value, choices):
    """"; did you mean 'title'?" when `value` is close to one of `choices` (in any case), else ""."""
    by_lower = {str(choice).lower(): choice for choice in choices}
    close = difflib.get_close_matches(str(value).lower(), list(by_lower), n=1, cutoff=0.6)
    return f"; did you mean {by_lower[close[0]]!r}?" if close else ""


@dataclasses.dataclass(frozen=True)
class Exercise:
    path: Path
    id: str
    title: str
    summary: str | None  # one line that says what the exercise asks (shown under the title on the index)
    difficulty: str
    track: str
    step: int
    tags: tuple
    entry: str
    time_limit: float
    test_time_limit: float | None  # seconds for any one test, besides time_limit for them all
    reveal_solution: str
    hints: tuple
    statement: str
    starter: str
    solution: str
    tests_source: str
    mutants: dict  # mutant file name -> source
    accepted: dict  # accepted variant's file name -> source: other correct solutions, which must pass
    points: dict   # hidden test name -> what it is worth (1 when not named)
    visibility: dict  # hidden test name -> when Gradescope shows it (VISIBILITIES; the assignment's when not named)
    uses: tuple    # ids of the earlier steps of the track whose entry functions the learner's code may call
    part: str | None  # the named part of its track it belongs to (the index groups steps by part)
    draft: bool       # previewed by `build.py serve`, left out of the site `build.py` publishes
    # Regular expressions for the code of the formula the step exists to teach: solution.py holds each,
    # starter.py none (the learner finds the method; hints may lead to it).
    hidden_formulas: tuple
    how_it_works: str | None  # how_it_works.md: the method, for after a pass
    track_helpers: str | None = None  # _track/<track>.py beside the exercises: helpers its tests import as _track

    @property
    def track_helpers_path(self):
        return self.path.parent / TRACK_HELPERS_FOLDER / f"{self.track}.py"

    def grading_spec(self):
        return GradingSpec(exercise_id=self.id, entry=self.entry, tests_source=self.tests_source,
                           track_source=self.track_helpers, track_filename=_display(self.track_helpers_path),
                           tests_filename=_display(self.path / "tests.py"), points=self.points or None)

    def error_at(self, key, message):
        """An ExerciseError about `key` of exercise.toml, at its line."""
        path = self.path / "exercise.toml"
        return ExerciseError(path, message, line_of(_read_text(path), key))

    def check_test_names(self, test_names):
        """ExerciseError naming the line of the first name in [points] or [visibility] that is not a hidden
        test's."""
        for table in ("points", "visibility"):
            for name in getattr(self, table):
                if name not in test_names:
                    path = self.path / "exercise.toml"
                    line = line_of_table_key(_read_text(path), table, name)
                    raise ExerciseError(path, f"{table}: no hidden test is named {name!r} (the names are the first "
                                              f"lines of the tests' docstrings: {', '.join(map(repr, test_names))})",
                                        line)


def find_exercise(name, root=EXERCISES_DIR):
    """Folder of an exercise given by id (under `root`) or by path."""
    as_path = Path(name)
    if (as_path / "exercise.toml").is_file():
        return as_path
    if ID_PATTERN.match(name) and (Path(root) / name).is_dir():
        return Path(root) / name
    known = ", ".join(p.name for p in exercise_folders(root)) or "none"
    raise ExerciseError(as_path, f"no such exercise (not a folder with exercise.toml, nor an id under "
                                 f"{_display(Path(root))}/; known ids: {known})")


def exercise_folders(root=EXERCISES_DIR):
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "exercise.toml").is_file())


def load_exercise(name_or_path, root=EXERCISES_DIR):
    folder = find_exercise(str(name_or_path), root)
    for filename in REQUIRED_FILES:
        if not (folder / filename).is_file():
            raise ExerciseError(folder / filename, "missing (every exercise needs "
                                                   + ", ".join(REQUIRED_FILES) + ")")
    metadata = _read_metadata(folder)
    texts = {name: _read_text(folder / name) for name in REQUIRED_FILES[1:]}
    for name in ("starter.py", "solution.py", "tests.py"):
        _check_compiles(folder / name, texts[name])
    _check_entry_defined(folder, metadata["entry"], texts["solution.py"])
    _check_hidden_formulas(folder, metadata["hidden_formulas"], texts["starter.py"], texts["solution.py"])
    how_it_works = folder / HOW_IT_WORKS_FILE
    track_helpers = folder.parent / TRACK_HELPERS_FOLDER / f"{metadata['track']}.py"
    if track_helpers.is_file():
        metadata["track_helpers"] = _read_text(track_helpers)
        _check_compiles(track_helpers, metadata["track_helpers"])
    return Exercise(
        path=folder, statement=texts["statement.md"], starter=texts["starter.py"],
        solution=texts["solution.py"], tests_source=texts["tests.py"], mutants=_solutions(folder / "mutants"),
        accepted=_solutions(folder / "accepted"),
        tags=tuple(metadata.pop("tags")), hints=tuple(metadata.pop("hints")), uses=tuple(metadata.pop("uses")),
        hidden_formulas=tuple(metadata.pop("hidden_formulas")),
        how_it_works=_read_text(how_it_works) if how_it_works.is_file() else None,
        **metadata,
    )


def track_step(folder):
    """(track, step, line of step) from a folder's exercise.toml, read alone; None when they cannot be read."""
    try:
        text = _read_text(Path(folder) / "exercise.toml")
        raw = tomllib.loads(text)
    except (ExerciseError, tomllib.TOMLDecodeError, RecursionError):
        return None
    track, step = raw.get("track"), raw.get("step")
    if not isinstance(track, str) or type(step) is not int:
        return None
    return track, step, line_of(text, "step")


def _solutions(folder):
    """{file name: source} of the .py files of `folder` (none when it does not exist), each compiled."""
    sources = {}
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else ():
        sources[path.name] = _read_text(path)
        _check_compiles(path, sources[path.name])
    return sources


def load_all(root=EXERCISES_DIR):
    return [load_exercise(folder, root) for folder in exercise_folders(root)]


def _read_text(path):
    try:
        data = read_bytes(path, MAX_FILE_BYTES, too_large_note="an exercise file is at most 1 MB")
    except SubmissionError as exc:
        raise ExerciseError(path, exc.reason) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExerciseError(path, f"not valid UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _check_compiles(path, source):
    try:
        compile(source, str(path), "exec")
    except SyntaxError as exc:
        raise ExerciseError(path, f"{type(exc).__name__}: {exc.msg}", exc.lineno) from None
    except ValueError as exc:
        raise ExerciseError(path, f"cannot be compiled: {exc}") from None
    except (RecursionError, MemoryError):
        raise ExerciseError(path, "cannot be compiled: a statement is too long or nested too deeply for "
                                  "the compiler; split it into smaller ones", _largest_statement_line(source)) from None


def _read_metadata(folder):
    path = folder / "exercise.toml"
    text = _read_text(path)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise ExerciseError(path, f"invalid TOML: {exc}", int(line.group(1)) if line else None) from None
    except RecursionError:
        raise ExerciseError(path, "arrays or tables nested too deeply to read", _deepest_bracket_line(text)) from None

    problems = []

    def error(key, message):
        problems.append(ExerciseError(path, message, line_of(text, key)))

    for key in raw:
        if key not in METADATA:
            error(key, f"unknown key {key!r} (known keys: {', '.join(METADATA)}){did_you_mean(key, METADATA)}")
    metadata, typed = {}, set()  # typed: the keys whose value has the right type, to be checked further
    for key, (kind, required, default) in METADATA.items():
        metadata[key] = default
        if key not in raw:
            if required:
                problems.append(ExerciseError(path, f"missing required key {key!r}"))
            else:
                typed.add(key)
        elif not isinstance(raw[key], kind) or (isinstance(raw[key], bool) and kind is not bool):
            expected = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            error(key, f"{key} should be {expected}, not {type(raw[key]).__name__} {raw[key]!r}")
        else:
            metadata[key] = raw[key]
            typed.add(key)
    _check_values({key: metadata[key] for key in typed}, folder, error)
    for name, worth in metadata["points"].items():
        if isinstance(worth, bool) or not isinstance(worth, (int, float)) or not 0 < worth < math.inf:
            problems.append(ExerciseError(path, f"points for {name!r} should be a positive number, not {worth!r}",
                                          line_of_table_key(text, "points", name)))
    for name, when in metadata["visibility"].items():
        if when not in VISIBILITIES:
            problems.append(ExerciseError(path, f"visibility of {name!r} should be one of {', '.join(VISIBILITIES)}, "
                                                f"not {when!r}", line_of_table_key(text, "visibility", name)))
    raise_all(sorted(problems, key=lambda problem: problem.line or 0))
    return metadata


def _check_values(meta, folder, error):
    """Report every wrong value with `error(key, message)`; `meta` holds only the keys whose type is right."""
    def wrong(key, is_wrong):
        return key in meta and is_wrong(meta[key])

    if wrong("id", lambda id_: id_ != folder.name):
        error("id", f"id {meta['id']!r} does not match the folder name {folder.name!r}")
    elif wrong("id", lambda id_: not ID_PATTERN.match(id_)):
        error("id", f"id {meta['id']!r} should be lowercase letters, digits and _")
    if wrong("title", lambda title: not title.strip()):
        error("title", "title is empty")
    if wrong("summary", lambda summary: summary is not None and (not summary.strip() or "\n" in summary
                                                                 or len(summary) > MAX_SUMMARY_CHARS)):
        error("summary", f"summary should be one non-empty line of at most {MAX_SUMMARY_CHARS} characters, "
                         f"not {meta['summary']!r}")
    for key, choices in (("difficulty", DIFFICULTIES), ("reveal_solution", REVEAL_CHOICES)):
        if wrong(key, lambda value: value not in choices):
            error(key, f"{key} should be one of {', '.join(choices)}, not {meta[key]!r}"
                       + did_you_mean(meta[key], choices))
    if wrong("track", lambda track: not re.match(r"^[a-z0-9][a-z0-9-]*$", track)):
        error("track", f"track {meta['track']!r} should be a lowercase slug like 'build-gpt'")
    if wrong("step", lambda step: step < 1):
        error("step", f"step should be 1 or more, not {meta['step']}")
    if wrong("entry", lambda entry: not entry.isidentifier()):
        error("entry", f"entry {meta['entry']!r} is not a valid Python function name")
    if wrong("time_limit", lambda limit: not 0 < limit <= 600):
        error("time_limit", f"time_limit should be between 0 and 600 seconds, not {meta['time_limit']}")
    elif "time_limit" in meta and wrong("test_time_limit", lambda limit: limit is not None
                                                                          and not 0 < limit <= meta["time_limit"]):
        error("test_time_limit", f"test_time_limit should be more than 0 and at most time_limit "
                                 f"({meta['time_limit']:g} s), not {meta['test_time_limit']}")
    for key in ("tags", "hints", "hidden_formulas"):
        item = next((item for item in meta.get(key, ()) if not isinstance(item, str) or not item.strip()), "ok")
        if item != "ok":
            error(key, f"every item of {key} should be a non-empty string, not {item!r}")
    for used in meta.get("uses", ()):
        if not isinstance(used, str) or not ID_PATTERN.match(used):
            error("uses", f"every item of uses should be an exercise id (lowercase letters, digits and _), "
                          f"not {used!r}")
        elif used == meta.get("id"):
            error("uses", f"an exercise cannot use itself ({used!r})")
    if wrong("uses", lambda uses: len(set(map(repr, uses))) != len(uses)):
        error("uses", "uses names an exercise more than once")
    if wrong("part", lambda part: part is not None and not part.strip()):
        error("part", "part is empty (leave it out, or name the part of the track)")


def _check_entry_defined(folder, entry, solution):
    """`entry` names a function solution.py defines at its top level; else say which ones it defines."""
    body = ast.parse(solution).body  # it compiled already
    defined = [node.name for node in body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assigned = {target.id for node in body if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Name)}
    if entry in defined or entry in assigned:
        return
    path = folder / "exercise.toml"
    functions = f"it defines {', '.join(defined)}" if defined else "it defines no function"
    raise ExerciseError(path, f"entry {entry!r} is not a function of solution.py ({functions})"
                              + did_you_mean(entry, defined), line_of(_read_text(path), "entry"))


def _check_hidden_formulas(folder, patterns, starter, solution):
    """Each pattern compiles, finds the formula in solution.py and is not in starter.py."""
    path = folder / "exercise.toml"
    for pattern in patterns:
        try:
            formula = re.compile(pattern)
        except re.error as exc:
            message = f"hidden_formulas: {pattern!r} is not a regular expression ({exc})"
        else:
            if not formula.search(solution):
                message = (f"hidden_formulas: {pattern!r} is not found in solution.py (each pattern should match "
                           f"the reference's code of the formula the step asks for)")
            elif match := formula.search(starter):
                line = starter.count("\n", 0, match.start()) + 1
                raise ExerciseError(folder / "starter.py", f"holds {match.group(0)!r}, a formula the step asks the "
                                                           f"learner to find (hidden_formulas in exercise.toml): "
                                                           f"leave it to the hints", line)
            else:
                continue
        raise ExerciseError(path, message, line_of(_read_text(path), "hidden_formulas"))


def _deepest_bracket_line(text):
    """The line where brackets nest deepest: where a TOML parser runs out of recursion."""
    depth = deepest = 0
    line = deepest_line = 1
    for char in text:
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest, deepest_line = depth, line
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char == "\n":
            line += 1
    return deepest_line if deepest else None


_LAYOUT_TOKENS = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def _largest_statement_line(source):
    """The first line of the statement with the most tokens: where the compiler runs out of recursion or memory."""
    counts = {}
    start = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NEWLINE:
                start = None
            elif token.type not in _LAYOUT_TOKENS:
                start = start or token.start[0]
                counts[start] = counts.get(start, 0) + 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return max(counts, key=counts.get) if counts else None


def _display(path):
    """A path relative to the working directory when it is inside it, else absolute."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)

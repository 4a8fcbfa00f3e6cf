"""Grade a folder of submissions: one isolated checker per learner, each result written as it finishes.

A learner is a file `NAME.py` of the folder, or a folder `NAME/` holding one .py
file (or the file named by --entry-file); every other entry is listed with the
reason it is not graded (hidden ones, ".name", are ignored).  A file is read
only if it is a regular, UTF-8 file of at most 1 MB, of its own (no other hard
link), reached from the folder without a symbolic link (see grader/submission.py).

With several exercises (an assignment), a learner is a folder `NAME/`, holding
each exercise's file (`Part.file_name`, at its top or in a folder within it); a
file that is missing or cannot be graded is recorded as 0 points with the reason.
An LMS's export (Canvas, Moodle, Gradescope) is recognised and read as that LMS
lays it out (grader/instructor/classfolder/); a folder where no learner is found is an
error, before anything is written.  The last of a file's re-uploads (softmax-1.py) is graded; a student's
several hand-ins for one exercise are one record, not graded, naming them.

The results file is JSON Lines (one report per line, plus "submission",
"exercise", "submission_sha256", "tests_sha256", "graded_at",
"grader_version" and "results_sha256" (grader/instructor/records.py), "student", "submitted_at" and
"late_marker" (who handed it in and when, grader/instructor/classfolder/handin.py; a reused record gets
them as they are now), and "missing" for a file not graded; a failed test's
"comparison" arrays are left out) or, for one exercise,
CSV (one row per submission, a status column per hidden test, "not graded"
where the test failed through the exercise's fault) when its name
ends in .csv.  It
is locked while a batch writes it.  Only the main thread writes it, a whole
record at a time, flushed and synced, so an interruption loses nothing already
graded.  A rerun reuses a record only when the submission's bytes and the
hidden tests (and the references of the steps the exercise uses) are the ones
it was graded with; a regraded submission's new record
is appended, then replaces the old one when the file is rewritten at the end
(atomically: a temporary file, synced, renamed over it).  A torn last record
from a crash is dropped; a file holding anything else than this exercise's
records is refused, untouched.  The outputs for instructors (grader/instructor/outputs/) are
made from these records.
"""

import contextlib
import csv
import dataclasses
import datetime
import fcntl
import hashlib
import json
import os
import stat
import sys
import tempfile
import time

from grader import __version__

from grader.instructor import classfolder
from grader.checker.supervisor import load_test_names
from grader.instructor.classfolder import Submission
from grader.instructor.classfolder.handin import handed_in_nothing
from grader.instructor.classfolder.times import with_times
from grader.instructor.classfolder.walk import files_under
from grader.instructor.records import record_problem, results_checksum
from grader.instructor.roster import with_roster
from grader.instructor.spreadsheet import safe_cell
from grader.submission import NOTEBOOK_SUFFIX, SubmissionError, display, file_kind, read_bytes
from grader.text import json_escaped, printable
from grader.track import reference_steps

CSV_FIRST_COLUMNS = ("submission", "passed", "score", "max_score", "error")  # then a column per hidden test
CSV_LAST_COLUMNS = ("exercise", "submission_sha256", "tests_sha256", "graded_at", "grader_version")
CSV_NOT_GRADED = "not graded"  # a test's cell when the exercise is at fault (its record's "exercise_bug")
MAX_RESULTS_BYTES = 1 << 30  # a results file read for reports: far above a class's (about 10 kB per record)
NOT_GRADED_SHOWN = 20  # entries listed when a folder holds no student
OPEN_FLAGS = os.O_NONBLOCK | os.O_CLOEXEC  # O_NONBLOCK: a FIFO or device given as --out must not block


class BatchError(Exception):
    """The folder or the results file cannot be used; the message names it and says why."""


def find_submissions(folder, entry_file=None, file_name=None):
    """(submissions, not graded): the learners in `folder`, and (name, reason) for every other entry.
    `file_name`: the exercise's file, looked for (with its re-uploads) in a folder of several .py files."""
    entries, not_graded = _entries(folder)
    submissions = []
    for name, path in entries:
        submission = _learner(name, path, entry_file, folder, file_name)
        if isinstance(submission, Submission):
            submissions.append(submission)
        else:
            not_graded.append((name, submission))
    return submissions, not_graded


def _entries(folder):
    """([(name shown, path)] of the entries of `folder` that are not hidden, [(name, why not graded)])."""
    shown = display(folder)
    folder = os.fspath(folder)
    if not os.path.exists(folder):
        raise BatchError(f"{shown}: no such folder")
    if not os.path.isdir(folder):
        raise BatchError(f"{shown}: not a folder")
    try:
        entries = sorted(os.listdir(folder))
    except OSError as exc:
        raise BatchError(f"{shown}: cannot be read ({exc.strerror})") from None
    found, not_graded, names = [], [], set()
    for entry in entries:
        if entry.startswith("."):
            continue
        name = display(entry)
        if name in names:
            not_graded.append((name, "another entry has the same name once shown with escapes"))
            continue
        names.add(name)
        found.append((name, os.path.join(folder, entry)))
    return found, not_graded


def _learner(name, path, entry_file, folder, file_name=None):
    """The Submission of the entry at `path` of the class folder `folder`, or the reason it is not one."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISDIR(mode):
        return _learner_folder(name, path, entry_file, folder, file_name)
    if not stat.S_ISREG(mode):
        return file_kind(mode)
    if not path.endswith((".py", NOTEBOOK_SUFFIX)):
        return "not a Python file or a Jupyter notebook"
    return Submission(name, path, folder=folder)


def _learner_folder(name, path, entry_file, folder, file_name=None):
    try:
        entries = sorted(f for f in os.listdir(path) if not f.startswith("."))
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    top = {entry: os.path.join(path, entry) for entry in entries}
    picked = classfolder.pick_file(top, entry_file) if entry_file else None
    if picked and picked.inner is not None:  # the file, or its last re-upload
        return _picked(name, picked, folder)
    if entry_file and os.path.lexists(os.path.join(path, entry_file)):  # a path within (src/main.py)
        return Submission(name, os.path.join(path, entry_file), display(entry_file), folder)
    # The .py files; or, when there is none, the notebooks.
    files = [f for f in entries if f.endswith(".py")] or [f for f in entries if f.endswith(NOTEBOOK_SUFFIX)]
    if len(files) == 1:
        return Submission(name, os.path.join(path, files[0]), display(files[0]), folder)
    if len(files) > 1 and not entry_file and file_name:  # the exercise's file, re-uploaded (softmax-1.py)?
        picked = classfolder.pick_file(top, file_name)
        if picked.inner is not None:
            return _picked(name, picked, folder)
    problem = picked and picked.problem
    if (entry_file or not files) and not problem:  # in an upload folder within the folder (sub/hw3/main.py)?
        picked = classfolder.pick_file(files_under(path), entry_file, any_python=not entry_file)
        if picked.inner is not None:
            return _picked(name, picked, folder)
        problem = picked.problem
    missing = f"a folder with no {display(entry_file)}, and " if entry_file else "a folder with "
    if not files:
        return missing + (problem or "no .py file or notebook")
    listed = ", ".join(display(f) for f in files)
    return missing + f"{len(files)} .{files[0].rpartition('.')[2]} files ({listed})" + ("" if entry_file else
                                                            "; name the one to grade with --entry-file")


def _picked(name, picked, folder):
    """The Submission of the file `pick_file` found in the learner `name`'s folder."""
    return Submission(name, picked.path, display(picked.inner), folder, superseded=picked.superseded)


class ResultsFile:
    """The results file, locked from opening to closing: the records it holds, and adding one at a time."""

    def __init__(self, path):
        self.shown = display(path)
        self.path = os.path.realpath(path)
        self.csv = os.fspath(path).lower().endswith(".csv")
        self.records = {}
        self.loaded = False
        self._rewrite_at_close = False
        self._fd, self._created = self._open_locked()

    def _open_locked(self):
        """A descriptor of the file, locked; (it, whether it was created).  Only one batch may write it."""
        for _ in range(10):
            try:
                fd, created = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | OPEN_FLAGS, 0o666), True
            except FileExistsError:
                try:
                    fd, created = os.open(self.path, os.O_RDWR | OPEN_FLAGS), False
                except FileNotFoundError:
                    continue  # removed between the two opens
                except OSError as exc:
                    raise BatchError(f"{self.shown}: cannot be written ({exc.strerror})") from None
            except OSError as exc:
                raise BatchError(f"{self.shown}: cannot be written ({exc.strerror})") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                opened = os.fstat(fd)
                current = os.stat(self.path)
            except BlockingIOError:
                os.close(fd)
                raise BatchError(f"{self.shown}: another batch is writing this results file") from None
            except FileNotFoundError:
                os.close(fd)
                continue
            if not stat.S_ISREG(opened.st_mode):
                os.close(fd)
                raise BatchError(f"{self.shown}: not a regular file")
            if (opened.st_dev, opened.st_ino) == (current.st_dev, current.st_ino):
                return fd, created
            os.close(fd)  # another batch replaced the file while this one was opening it: open the new one
        raise BatchError(f"{self.shown}: another batch is writing this results file")

    def load(self, exercises, force):
        """Read the records already there (none with `force`: the file is emptied); BatchError, the file
        untouched, when they are not records of `exercises` ({id: Graded})."""
        self.exercises = exercises
        if self.csv and len(exercises) > 1:
            raise BatchError(f"{self.shown}: a CSV results file holds one exercise's results; "
                             "use a .jsonl results file for several exercises")
        test_names = next(iter(exercises.values())).test_names
        self.test_names = list(test_names)
        self.columns = CSV_FIRST_COLUMNS + tuple(test_names) + CSV_LAST_COLUMNS
        data = b"" if force else self._read()
        complete = data[:data.rfind(b"\n") + 1]  # what follows the last newline is a record torn by a crash
        lines = complete.split(b"\n")[:-1]
        header = self._parse_csv(lines) if self.csv else self._parse_jsonl(lines)
        self.loaded = True
        if self.csv and header is not None and header != self.columns:
            self._rewrite()  # the hidden tests changed: the file gets their columns
            return
        if len(complete) < len(data) or force:
            os.ftruncate(self._fd, len(complete))
        if self.csv and header is None:
            self._append(self._csv_line(self.columns))

    def _read(self):
        os.lseek(self._fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(self._fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)

    def _parse_jsonl(self, lines):
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
            except (ValueError, RecursionError):
                self._corrupt(number, "not JSON")
            self._keep(number, record)
        return None

    def _parse_csv(self, lines):
        if not lines:
            return None
        header = self._csv_cells(1, lines[0])
        tests = header[len(CSV_FIRST_COLUMNS):-len(CSV_LAST_COLUMNS)]
        if header[:len(CSV_FIRST_COLUMNS)] != CSV_FIRST_COLUMNS or header[-len(CSV_LAST_COLUMNS):] != CSV_LAST_COLUMNS:
            self._corrupt(1, "not the header of a results file")
        for number, line in enumerate(lines[1:], 2):
            row = self._csv_cells(number, line)
            if len(row) != len(header):
                self._corrupt(number, f"{len(row)} cells where the header has {len(header)} columns")
            first, statuses, last = row[:len(CSV_FIRST_COLUMNS)], row[len(CSV_FIRST_COLUMNS):-len(CSV_LAST_COLUMNS)], \
                row[-len(CSV_LAST_COLUMNS):]
            self._keep(number, {
                **dict(zip(CSV_FIRST_COLUMNS, first)), **dict(zip(CSV_LAST_COLUMNS, last)),
                "passed": {"true": True, "false": False}.get(first[1], first[1]), "error": first[4] or None,
                "score": _number(first[2]), "max_score": _number(first[3]), "submission_sha256": last[1] or None,
                "tests": [{"name": n, "status": "error", "exercise_bug": True} if s == CSV_NOT_GRADED
                          else {"name": n, "status": s} for n, s in zip(tests, statuses) if s],
                **({} if last[1] else {"missing": first[4]})})  # a file not graded: its error says why
        return header

    def _csv_cells(self, number, line):
        try:
            row = next(csv.reader([line.decode("utf-8")], strict=True), [])
        except (UnicodeDecodeError, csv.Error):
            self._corrupt(number, "not a CSV row")
        return tuple(cell[1:] if cell.startswith("'") else cell for cell in row)

    def _keep(self, number, record):
        problem = record_problem(record, complete=not self.csv)
        if problem:
            self._corrupt(number, problem)
        if record["exercise"] not in self.exercises:
            names = ", ".join(map(repr, self.exercises))
            raise BatchError(f"{self.shown}: holds results of exercise {record['exercise'][:80]!r}, "
                             f"not of {names}; use another --out (or --force to replace them)")
        key = (record["exercise"], record["submission"])
        if key in self.records:
            self._rewrite_at_close = True  # a regrade appended by a run that was killed: keep the last one
            del self.records[key]
        self.records[key] = record

    def _corrupt(self, number, problem):
        raise BatchError(f"{self.shown}:{number}: not a results record ({problem}); "
                         "use --force to grade everything again, or another --out")

    def reusable(self, exercise_id, name, submission_sha256, missing=None):
        """The record of submission `name` if it graded these bytes (or found the file missing for the
        same reason) with these hidden tests and points, else None."""
        record = self.records.get((exercise_id, name))
        graded = self.exercises[exercise_id]
        if (record is not None and record["submission_sha256"] == submission_sha256
                and record.get("missing") == missing and record["tests_sha256"] == graded.tests_sha256
                and [t["name"] for t in record["tests"]] == graded.test_names
                and record["max_score"] == graded.max_score_of(record["tests"])
                and (self.csv or [t.get("max_score") for t in record["tests"]] == graded.points)):
            return record
        return None

    def refresh(self, record, about):
        """Keep a reused record, with who and when as they are now (a roster or times given since), and the
        re-uploads its file superseded as they are now."""
        updated = {key: value for key, value in record.items() if key != "reupload"} | about
        if not self.csv and updated != record:
            self.add(updated)

    def add(self, record):
        key = (record["exercise"], record["submission"])
        if key in self.records:
            self._rewrite_at_close = True  # the old record stays in the file until then
        self.records[key] = record
        self._append(self._line(record))

    def _line(self, record):
        if self.csv:
            statuses = {t["name"]: CSV_NOT_GRADED if t.get("exercise_bug") else t["status"] for t in record["tests"]}
            return self._csv_line([record["submission"], str(record["passed"]).lower(), f"{record['score']:g}",
                                   f"{record['max_score']:g}", record["error"] or ""]
                                  + [statuses.get(name, "") for name in self.test_names]
                                  + [record.get(key) or "" for key in CSV_LAST_COLUMNS])
        # JSON lets Unicode line breaks, C1 controls and bidi overrides stand unescaped; a reader splitting on
        # every line break would cut the record, and a viewer would show them: they are \\u-escaped.
        return json_escaped(json.dumps(record, ensure_ascii=False, allow_nan=False)) + "\n"

    @staticmethod
    def _csv_line(cells):
        """One physical line: line breaks in a cell become spaces; a cell that a spreadsheet would take for
        a formula gets a leading quote."""
        cells = [safe_cell(cell) for cell in cells]
        buffer = _LineBuffer()
        csv.writer(buffer, lineterminator="\n").writerow(cells)
        return buffer.line

    def _append(self, text):
        try:
            os.lseek(self._fd, 0, os.SEEK_END)
            _write_synced(self._fd, text)
        except OSError as exc:
            raise BatchError(f"{self.shown}: cannot be written ({exc.strerror})") from None

    def _rewrite(self):
        """Replace the file by one holding each record once: written to a temporary file in the same folder,
        synced, then renamed over it; the temporary file never stays behind."""
        lines = ([self._csv_line(self.columns)] if self.csv else []) + [self._line(r) for r in self.records.values()]
        folder, name = os.path.split(self.path)
        try:
            fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
        except OSError as exc:
            raise BatchError(f"{self.shown}: cannot be rewritten: no temporary file in its folder "
                             f"({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # locked before it takes the file's place
            os.fchmod(fd, stat.S_IMODE(os.fstat(self._fd).st_mode))
            _write_synced(fd, "".join(lines))
            os.replace(temporary, self.path)
        except BaseException as exc:
            os.close(fd)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            if isinstance(exc, OSError):
                raise BatchError(f"{self.shown}: cannot be rewritten ({exc.strerror})") from None
            raise
        os.close(self._fd)
        self._fd, self._rewrite_at_close = fd, False
        _sync_folder(folder)

    def close(self):
        try:
            if self._rewrite_at_close:
                self._rewrite()
        finally:
            if self._created and not self.loaded:
                os.unlink(self.path)  # nothing was written: leave no empty file behind
            os.close(self._fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def read_records(path):
    """The records of a JSON Lines results file, the last of each (exercise, submission) in the file;
    BatchError naming the file, the line and the field of anything else (see grader/instructor/records.py), or of
    records of one exercise that do not list the same tests."""
    shown = display(path)
    if os.fspath(path).lower().endswith(".csv"):
        raise BatchError(f"{shown}: reports are made from a JSON Lines results file; a CSV keeps no messages")
    try:
        data = read_bytes(path, MAX_RESULTS_BYTES, too_large_note="not a results file")
    except SubmissionError as exc:
        raise BatchError(str(exc)) from None
    records, first_of = {}, {}  # first_of: exercise id -> (line, record) of its first record
    for number, line in enumerate(data.split(b"\n")[:-1], 1):
        try:
            record = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
        except (ValueError, RecursionError):
            record = None
        problem = record_problem(record) if record is not None else "not JSON"
        if not problem:
            first_line, first = first_of.setdefault(record["exercise"], (number, record))
            if _tests(record) != _tests(first):
                problem = (f"tests: not the tests (names and points) of line {first_line}, a record of the same "
                           "exercise; grade the class again to finish an interrupted batch")
        if problem:
            raise BatchError(f"{shown}:{number}: not a results record ({problem})")
        records.pop((record["exercise"], record["submission"]), None)
        records[(record["exercise"], record["submission"])] = record
    return list(records.values())


def _tests(record):
    return [(test["name"], test["max_score"]) for test in record["tests"]]


def _number(text):
    """A CSV cell's number, or the text itself when it is not one (the record check then refuses it)."""
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON value")


class _LineBuffer:
    def write(self, text):
        self.line = text


def _write_synced(fd, text):
    data = memoryview(text.encode("utf-8", "replace"))  # "replace": no lone surrogate reaches the file
    while data:
        data = data[os.write(fd, data):]
    os.fsync(fd)


def _sync_folder(folder):
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclasses.dataclass(frozen=True)
class Graded:
    """What an exercise's records must have been graded with to be reused."""
    tests_sha256: str
    test_names: list
    points: list      # each test's max_score, in order

    @property
    def max_score(self):
        return sum(self.points)

    def max_score_of(self, tests):
        """The max_score of a record with these tests: the worth of those graded (not the exercise's bug)."""
        return sum(worth for worth, test in zip(self.points, tests) if not test.get("exercise_bug"))


def run_batch(assignment, folder, out, limits_for, executor, force, progress, entry_file=None, by_student=False,
              student=None, roster=None, times=None):
    """Grade every learner in `folder` not already graded in `out` with these bytes and these hidden tests,
    with `executor` (see grader/checker/executors.py).

    The folder's layout is recognised (grader/instructor/classfolder/): an LMS export, or a plain folder of one
    learner per entry (see find_submissions), or, `by_student`, one per folder holding a file for each
    exercise of `assignment`; given a `student` name, `folder` is that one student's.  A `roster`
    (grader/instructor/roster.py) joins the students and adds those with no hand-in; `times` ({student id: time})
    gives submission times.  Returns (the records of the folder's learners, in order, {exercise id:
    hidden test names}, [(name, why not graded)]).
    """
    notes = []  # printed once the exercises and the results file load: a problem with them is one error line
    if student is not None:
        learners, not_graded = _student_files(student, os.fspath(folder), assignment, folder), []
        by_student = True
    else:
        layout, learners, not_graded = find_learners(folder, assignment, entry_file, by_student)
        if not learners:
            raise BatchError(_nobody_found(folder, layout, not_graded))
        students = len({learner.submission.name for learner in learners})
        notes.append(f"Layout: {classfolder.describe(layout)}; {students} student(s) found.")
    if roster is not None:
        learners = with_roster(learners, roster, assignment.parts, folder)
    if times is not None:
        learners, unknown = with_times(learners, times)
        notes += [f"warning: --times: no student has the id {student_id}" for student_id in unknown]
    learners = classfolder.one_per_student(learners, folder)
    record_missing = by_student or roster is not None  # else a file that cannot be graded is only listed
    # The hidden tests load before the results file opens, so a broken exercise writes nothing.
    exercises, graded, earlier = {}, {}, {}
    for part in assignment.parts:
        exercise = exercises[part.exercise.id] = part.exercise
        earlier[exercise.id] = reference_steps(exercise)  # offline the steps it uses are the references
        test_names = load_test_names(exercise.grading_spec())
        exercise.check_test_names(test_names)
        graded[exercise.id] = Graded(_tests_sha256(exercise, earlier[exercise.id]), test_names,
                                     _points(exercise, test_names))
    with ResultsFile(out) as results, executor:
        results.load(graded, force)
        for note in notes:
            progress.note(note)
        todo, kept, missing = [], [], 0
        for learner in learners:
            submission = learner.submission
            try:
                submission_sha256, _, _ = submission.read()
            except SubmissionError as exc:
                if not (record_missing or submission.several):  # a student's several hand-ins: their record says so
                    not_graded.append((submission.name, submission.reason(exc)))
                    continue
                reason = submission.reason(exc)
                record = results.reusable(learner.exercise_id, submission.name, None, reason)
                if record is None:
                    results.add(_missing_record(learner, reason, graded[learner.exercise_id]))
                else:
                    results.refresh(record, learner.about)
                kept.append(learner)
                missing += 1
                continue
            kept.append(learner)
            record = results.reusable(learner.exercise_id, submission.name, submission_sha256)
            if record is None:
                todo.append(learner)
            else:
                results.refresh(record, learner.about)
        present = len(kept) - missing  # a missing file is recorded, not graded
        progress.start(total=present, done=present - len(todo))
        try:
            for exercise_id, exercise in exercises.items():
                todo_here = [learner for learner in todo if learner.exercise_id == exercise_id]
                about = {learner.submission.name: learner.about for learner in todo_here}
                items = _sources(todo_here, kept, not_graded, progress, record_missing, results, graded[exercise_id])
                reports = executor.grade(exercise.grading_spec(), limits_for(exercise), graded[exercise_id].test_names,
                                         items, earlier[exercise_id])
                with contextlib.closing(reports):
                    for (name, submission_sha256, notes), report in reports:
                        record = _record(name, submission_sha256, graded[exercise_id].tests_sha256, report,
                                         about[name], notes)
                        results.add(record)
                        progress.advance(record)
        finally:
            progress.finish()
        records = [results.records[(learner.exercise_id, learner.submission.name)] for learner in kept]
        return records, {exercise_id: g.test_names for exercise_id, g in graded.items()}, sorted(not_graded)


def _tests_sha256(exercise, earlier):
    """The hash a record keeps of what it was graded against: tests.py, and the code of the earlier steps
    in scope (a fix to a used step's reference regrades), none for an exercise that uses none."""
    digest = hashlib.sha256(exercise.tests_source.encode())
    for step in earlier:
        digest.update(b"\0" + step.exercise_id.encode() + b"\0" + step.source.encode())
    return digest.hexdigest()


def _sources(learners, kept, not_graded, progress, record_missing, results, graded):
    """(key, source) of each learner's file, read again when its turn comes: graded and hashed as it is then."""
    for learner in learners:
        submission = learner.submission
        try:
            submission_sha256, source, notes = submission.read()
        except SubmissionError as exc:
            progress.total -= 1
            if record_missing:
                results.add(_missing_record(learner, submission.reason(exc), graded))
            else:
                not_graded.append((submission.name, submission.reason(exc)))
                kept.remove(learner)
            continue
        yield (submission.name, submission_sha256, tuple(notes)), source


def find_learners(folder, assignment, entry_file=None, by_student=False):
    """(layout, [Learner], [(name, why not graded)]) of the class folder `folder`, whose layout is
    recognised from its entries' names (grader/instructor/classfolder/)."""
    entries, not_graded = _entries(folder)
    names = [os.path.basename(path) for _, path in entries]
    layout = classfolder.detect(names)
    if layout != classfolder.PLAIN:
        try:
            hand_ins, others = classfolder.hand_ins(layout, os.fspath(folder), names)
        except classfolder.MetadataError as exc:
            raise BatchError(str(exc)) from None
        learners = classfolder.learners_of(hand_ins, assignment, folder, entry_file, single=not by_student)
        return layout, learners, not_graded + others
    if by_student:
        return (layout, *find_students(folder, assignment))
    part = assignment.parts[0]
    submissions, not_graded = find_submissions(folder, entry_file, part.file_name)
    return layout, [classfolder.learner(part.exercise.id, s, classfolder.about_name(s.name))
                    for s in submissions], not_graded


def _nobody_found(folder, layout, not_graded):
    """Why a batch stops, writing nothing, when the folder holds no student's hand-in."""
    lines = [f"{display(folder)}: no student found (read as a {classfolder.describe(layout)})"]
    lines += [f"  {name}: {reason}" for name, reason in not_graded[:NOT_GRADED_SHOWN]]
    if len(not_graded) > NOT_GRADED_SHOWN:
        lines.append(f"  and {len(not_graded) - NOT_GRADED_SHOWN} more")
    if not not_graded:
        lines[0] += "; the folder is empty"
    return printable("\n".join(lines))


def find_students(folder, assignment):
    """(learners, not graded): for each student's folder in `folder`, its file for each exercise."""
    entries, not_graded = _entries(folder)
    learners = []
    for name, path in entries:
        try:
            mode = os.lstat(path).st_mode
        except OSError as exc:
            not_graded.append((name, f"cannot be read ({exc.strerror})"))
            continue
        if not stat.S_ISDIR(mode):
            not_graded.append((name, file_kind(mode) if stat.S_ISLNK(mode) else
                               "not a student's folder (each student's files go in a folder of their own)"))
            continue
        learners += _student_files(name, path, assignment, folder)
    return learners, not_graded


def _student_files(name, path, assignment, folder):
    """A Learner for each exercise's file in the student's folder `path`, read from `folder`: the file, or a
    notebook in its place (`accepted_names`); a file not at the top is looked for in the folders within (an
    upload folder: sub/hw3/softmax.py).  The last of its re-uploads (softmax-1.py) is graded."""
    about, learners, nested = classfolder.about_name(name), [], None
    try:
        top = {entry: os.path.join(path, entry) for entry in sorted(os.listdir(path)) if not entry.startswith(".")}
    except OSError:
        top = {}  # reading the file says why
    for part in assignment.parts:
        picked = classfolder.pick_file(top, part.file_name)
        if picked.inner is None and not picked.problem:
            nested = files_under(path) if nested is None else nested
            picked = classfolder.pick_file(nested, part.file_name)
        if picked.inner is not None:
            submission = _picked(name, picked, folder)
        elif picked.problem:
            submission = Submission(name, os.path.join(path, part.file_name), folder=folder, problem=picked.problem)
        else:
            submission = Submission(name, os.path.join(path, part.file_name), display(part.file_name), folder)
        learners.append(classfolder.learner(part.exercise.id, submission, about))
    return learners


def _points(exercise, test_names):
    return [exercise.points.get(name, 1) for name in test_names]


def _record(name, submission_sha256, tests_sha256, report, about, notes):
    # A failed test's `comparison` (the arrays drawn for a learner, up to ~50 kB) stays out: a class's
    # results file is read for marks and feedback text, and would grow by that much per submission.
    tests = [{key: value for key, value in test.items() if key != "comparison"} for test in report["tests"]]
    return _checksummed({"submission": name, "exercise": report["exercise"], "submission_sha256": submission_sha256,
                         "tests_sha256": tests_sha256, "graded_at": _now(), "grader_version": __version__,
                         **report, "tests": tests, **({"notes": list(notes)} if notes else {}), **about})


def _missing_record(learner, reason, graded):
    """The record of a file that could not be graded: 0 points, `reason` as the error."""
    message = f"Not run: {reason}."
    tests = [{"name": name, "status": "error", "message": message, "duration_ms": 0.0, "stdout": "",
              "score": 0, "max_score": worth} for name, worth in zip(graded.test_names, graded.points)]
    return _checksummed({"submission": learner.submission.name, "exercise": learner.exercise_id,
                         "submission_sha256": None, "tests_sha256": graded.tests_sha256, "graded_at": _now(),
                         "grader_version": __version__, "missing": reason, "passed": False, "error": reason,
                         "tests": tests, "stdout": "", "score": 0, "max_score": graded.max_score, **learner.about})


def _checksummed(record):
    return {**record, "results_sha256": results_checksum(record)}


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def summarize(records, test_names, not_graded=()):
    """The end-of-run summary: how many passed, each hidden test's pass rate, and what was not graded.

    `test_names`: {exercise id: its hidden tests' names}; with several exercises, a part for each."""
    if len(test_names) == 1:
        lines = _pass_rates(records, *test_names.values())
    else:
        lines = []
        for exercise_id, names in test_names.items():
            lines += [f"== {exercise_id} ==", *_pass_rates([r for r in records if r["exercise"] == exercise_id],
                                                          names), ""]
        lines.pop()
    if not_graded:
        lines += ["", f"Not graded ({len(not_graded)}):"] + [f"  {name}: {reason}" for name, reason in not_graded]
    reuploads = sorted({f"{r['submission']}: graded {r['reupload']['graded']}, superseded "
                        f"{', '.join(r['reupload']['superseded'])}" for r in records if r.get("reupload")})
    if reuploads:
        lines += ["", f"Re-uploaded, the last upload graded ({len(reuploads)}):"] + [f"  {r}" for r in reuploads]
    outsiders = not_in_roster(records)
    if outsiders:
        lines += ["", f"Not in the roster, graded all the same ({len(outsiders)}):"] + [f"  {o}" for o in outsiders]
    return printable("\n".join(lines))


def not_in_roster(records):
    """The hand-ins of students the roster does not list, as "name (id ...)", once each."""
    return sorted({f"{r['submission']} (id {r['student']['id']})" for r in records
                   if r.get("student", {}).get("in_roster") is False})


def _pass_rates(records, test_names):
    """The rates over the gradable hand-ins; who handed in nothing and what could not be graded, named apart."""
    gradable = [r for r in records if "missing" not in r]
    nothing = sorted(r["submission"] for r in records if handed_in_nothing(r))
    refused = sorted(f"{r['submission']}: {r['missing']}" for r in records
                     if "missing" in r and not handed_in_nothing(r))
    total = len(gradable)
    if not total:
        lines = ["No submissions graded."]
    else:
        passed = sum(r["passed"] for r in gradable)
        lines = [f"{passed}/{total} submissions passed every test ({100 * passed / total:.1f}%).", "",
                 "Pass rate per hidden test:"]
        buggy = {}  # test name -> submissions it could not grade: its own code failed
        for name in test_names:
            count = sum(any(t["name"] == name and t["status"] == "passed" for t in r["tests"]) for r in gradable)
            buggy[name] = sum(any(t["name"] == name and t.get("exercise_bug") for t in r["tests"]) for r in gradable)
            rate = count / total
            bar = "#" * round(rate * 20)
            not_graded = f", not graded on {buggy[name]}" if buggy[name] else ""
            lines.append(f"  {100 * rate:5.1f}%  {bar:<20}  {name}  ({count}/{total}{not_graded})")
        lines += [f"\nThe exercise has a bug: test {name!r} failed in its own code on {count} submission(s), not "
                  "graded there (left out of their score, not counted against them); fix tests.py and grade again."
                  for name, count in buggy.items() if count]
    if nothing:
        lines.append(f"\nNothing handed in, 0 points ({len(nothing)}): {', '.join(nothing)}")
    if refused:
        lines.append(f"\nHanded in but not gradable, 0 points ({len(refused)}):\n"
                     + "\n".join(f"  {line}" for line in refused))
    errors = sum(r["error"] is not None and "missing" not in r for r in records)
    if errors:
        lines.append(f"\n{errors} submission(s) could not be loaded (syntax error, crash at import, no entry function).")
    return lines


class Progress:
    """A progress bar on a terminal, one plain line per submission otherwise (on stderr)."""

    def __init__(self, stream=sys.stderr, show_exercise=False):
        self.stream = stream
        self.tty = stream.isatty()
        self.show_exercise = show_exercise

    def start(self, total, done):
        self.total, self.done, self.graded_now, self.passed = total, done, 0, 0
        self.started = time.monotonic()
        if done:
            self._print_line(f"{done} of {total} already graded; grading the other {total - done}.")
        self._draw()

    def advance(self, record):
        self.done += 1
        self.graded_now += 1
        self.passed += record["passed"]
        if self.tty:
            self._draw()
        else:
            label = record["submission"] + (f" / {record['exercise']}" if self.show_exercise else "")
            self._print_line(f"[{self.done}/{self.total}] {printable(label)}: "
                             f"{record['score']:g}/{record['max_score']:g} points"
                             + (" (could not load)" if record["error"] else ""))

    def _draw(self):
        if not self.tty:
            return
        elapsed = time.monotonic() - self.started
        rate = self.graded_now / elapsed if elapsed > 0 else 0.0
        remaining = (self.total - self.done) / rate if rate else 0
        filled = round(30 * self.done / self.total) if self.total else 30
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total}  "
                          f"{rate:.1f}/s  ETA {remaining:.0f}s ")
        self.stream.flush()

    def note(self, text):
        """A line for the instructor before grading starts (the layout found, a warning)."""
        self._print_line(printable(text))

    def _print_line(self, text):
        self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self):
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

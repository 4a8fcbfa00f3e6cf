"""Grade a folder of submissions: one isolated child per file, results appended as each finishes.

The results file is JSON Lines (one report per line, plus "submission") or CSV
(one row per submission, a status column per hidden test) when its name ends
in .csv.  Only the main thread writes it, a whole record at a time, flushed and
synced, so an interruption loses nothing already graded; a rerun skips the
submissions already in it (a torn last record from a crash is dropped first).
"""

import csv
import io
import json
import os
import sys
import time
from pathlib import Path

from grader.checker.supervisor import Grader

CSV_FIXED_COLUMNS = ("submission", "passed", "score", "error")


class BatchError(Exception):
    """The folder or the results file cannot be used; the message names it and says why."""


def submission_files(folder):
    folder = Path(folder)
    if not folder.exists():
        raise BatchError(f"{folder}: no such folder")
    if not folder.is_dir():
        raise BatchError(f"{folder}: not a folder")
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".py" and p.is_file())
    except OSError as exc:
        raise BatchError(f"{folder}: cannot be read ({exc.strerror})") from None


class ResultsFile:
    """The results file: what it already holds, and appending one record at a time."""

    def __init__(self, path, test_names, force):
        self.path = Path(path)
        self.csv = self.path.suffix.lower() == ".csv"
        self.columns = CSV_FIXED_COLUMNS + tuple(test_names)
        self.records = {} if force else self._read_existing()
        mode = "a" if self.records else "w"
        try:
            self._file = open(self.path, mode, encoding="utf-8", newline="")
        except OSError as exc:
            raise BatchError(f"{self.path}: cannot be written ({exc.strerror})") from None
        if self.csv and mode == "w":
            self._write_line(_csv_line(self.columns))

    def _read_existing(self):
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise BatchError(f"{self.path}: cannot be read ({exc.strerror})") from None
        complete = data[:data.rfind(b"\n") + 1]
        if len(complete) < len(data):
            with open(self.path, "r+b") as file:  # drop a record torn by a crash mid-write
                file.truncate(len(complete))
        text = complete.decode("utf-8", errors="replace")
        return self._parse_csv(text) if self.csv else self._parse_jsonl(text)

    def _parse_jsonl(self, text):
        records = {}
        for number, line in enumerate(text.splitlines(), 1):
            try:
                record = json.loads(line)
                records[record["submission"]] = record
            except (ValueError, KeyError, TypeError):
                raise BatchError(f"{self.path}:{number}: not a results record; use another --out or --force") from None
        return records

    def _parse_csv(self, text):
        rows = list(csv.reader(io.StringIO(text)))
        if not rows:
            return {}
        if tuple(rows[0]) != self.columns:
            raise BatchError(f"{self.path}: its columns are not this exercise's; use another --out or --force")
        return {row[0]: _record_from_csv(self.columns, row) for row in rows[1:] if row}

    def append(self, record):
        self.records[record["submission"]] = record
        if self.csv:
            self._write_line(_csv_line(_csv_row(self.columns, record)))
        else:
            self._write_line(json.dumps(record, ensure_ascii=False) + "\n")

    def _write_line(self, line):
        self._file.write(line)
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self):
        self._file.close()


def _csv_line(values):
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(values)
    return buffer.getvalue()


def _csv_row(columns, record):
    statuses = {t["name"]: t["status"] for t in record["tests"]}
    return [record["submission"], str(record["passed"]).lower(), record["score"], record["error"] or ""] + \
        [statuses.get(name, "") for name in columns[len(CSV_FIXED_COLUMNS):]]


def _record_from_csv(columns, row):
    names = columns[len(CSV_FIXED_COLUMNS):]
    statuses = row[len(CSV_FIXED_COLUMNS):]
    return {"submission": row[0], "passed": row[1] == "true", "score": row[2], "error": row[3] or None,
            "tests": [{"name": n, "status": s} for n, s in zip(names, statuses)]}


def run_batch(exercise, folder, out, limits, jobs, force, progress, sandbox):
    """Grade every *.py in `folder` not yet in `out`; return all records for the folder's files."""
    files = submission_files(folder)
    grader = Grader(exercise.grading_spec(), limits, sandbox)
    test_names = grader.test_names
    results = ResultsFile(out, test_names, force)
    todo = [path for path in files if path.name not in results.records]
    progress.start(total=len(files), done=len(files) - len(todo))

    def record_of(path, report):
        passed_tests = sum(t["status"] == "passed" for t in report["tests"])
        return {"submission": path.name, "score": f"{passed_tests}/{len(report['tests'])}", **report}

    readable = []
    for path in todo:
        try:
            readable.append((path, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            record = record_of(path, _unreadable_report(exercise.id, test_names, path, exc))
            results.append(record)
            progress.advance(record)
    try:
        for path, report in grader.grade_all(readable, jobs):
            record = record_of(path, report)
            results.append(record)
            progress.advance(record)
    finally:
        results.close()
        progress.finish()
    return [results.records[p.name] for p in files if p.name in results.records], test_names


def _unreadable_report(exercise_id, test_names, path, exc):
    reason = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else exc.strerror
    message = f"The file {path.name} could not be read ({reason})."
    return {"exercise": exercise_id, "passed": False, "error": message, "stdout": "",
            "tests": [{"name": n, "status": "error", "message": "Not run: " + message, "duration_ms": 0.0}
                      for n in test_names]}


def summarize(records, test_names):
    """The end-of-run summary: how many passed, and each hidden test's pass rate."""
    total = len(records)
    if not total:
        return "No submissions graded."
    passed = sum(r["passed"] for r in records)
    lines = [f"{passed}/{total} submissions passed every test ({100 * passed / total:.1f}%).", "",
             "Pass rate per hidden test:"]
    for name in test_names:
        count = sum(any(t["name"] == name and t["status"] == "passed" for t in r["tests"]) for r in records)
        rate = count / total
        bar = "#" * round(rate * 20)
        lines.append(f"  {100 * rate:5.1f}%  {bar:<20}  {name}  ({count}/{total})")
    errors = sum(r["error"] is not None for r in records)
    if errors:
        lines.append(f"\n{errors} submission(s) could not be loaded (syntax error, crash at import, no entry function).")
    return "\n".join(lines)


class Progress:
    """A progress bar on a terminal, one plain line per submission otherwise (on stderr)."""

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.tty = stream.isatty()

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
            self._print_line(f"[{self.done}/{self.total}] {record['submission']}: {record['score']} tests passed"
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

    def _print_line(self, text):
        self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self):
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

"""Hostile instructor files (roster, times, overrides, assignment TOML with its late policy): each is refused on read
with one line naming the file and the line, exit 2, never a traceback; nothing the records would refuse later
(grader/instructor/records.py) gets past the reader.  And a roster at the records' limits goes through a batch, and
`report` reads back what the batch wrote."""

import codecs
import concurrent.futures
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.cli import main
from grader.exercise import EXERCISES_DIR
from grader.instructor.records import NAME_LIMIT, results_checksum
from grader.instructor.roster import ABSENT_ROOM

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = (EXERCISES_DIR / "softmax" / "solution.py").read_text()
LONG = "A" * 100_000
TIME = "2026-11-20T23:59:00+01:00"
EXERCISE = b'[[exercise]]\nid = "softmax"\n'
POLICY = b"due = 2026-11-20T23:59:00+01:00\n" + EXERCISE + b"[late]\npenalty_per_day = 0.1\n"

# name -> (the file's bytes, how the one line starts after "error: FILE")
ROSTERS = {
    "long_name.csv": (f"id,name\nada,Ada\nbob,{LONG}\n".encode(), ":3: the name has 100,000 characters; at most 4,096"),
    "name_and_id.csv": (f"id,name\nada,Ada\n{'9' * 2000},{'B' * 2000}\n".encode(),
                        ":3: the name and the id have 4,000 characters; at most 3,996 together"),
    "nul.csv": (b"id,name\nada,Ada\x00\n", ":2: the name holds a control character or a line break (U+0000)"),
    "escape.csv": (b"id,name\nada,\x1b[31mAda\n", ":2: the name holds a control character or a line break (U+001B)"),
    "line_separator.csv": ("id,name\nada,Ada\u2028Lovelace\n".encode(), ":2: the name holds a control character"),
    "utf16.csv": ("id,name\nada,Ada\n".encode("utf-16"), ":1: UTF-16 or UTF-32 text, not UTF-8 (save it as CSV UTF-8)"),
    "latin1.csv": ("id,name\nada,Ada\nzoe,Zoë\n".encode("latin-1"), ":3: not UTF-8 text (save it as CSV UTF-8)"),
    "open_quote.csv": (b'id,name\nada,"Ada\n', ":2: not CSV (unexpected end of data)"),
    "huge_field.csv": (b"id,name\nada,Ada," + b"x" * 200_000 + b"\n", ":2: not CSV (field larger than field limit"),
    "million_rows.csv": (b"id,name\n" + b"".join(b"%d,S%d\n" % (i, i) for i in range(1_000_000)),
                         ":100002: more than 100,000 rows: not a class's table"),
    "duplicate_id.csv": (b"id,name\nada,Ada\nada,Bob\n", ":3: id 'ada' is already on line 2"),
    "duplicate_email.csv": (b"id,name,email\nada,Ada,ada@example.org\nbob,Bob,ADA@example.org\n",
                            ":3: email 'ADA@example.org' is already on line 2"),
    "duplicate_login.csv": (b"id,name,login\nada,Ada,al\nbob,Bob,al\n", ":3: login 'al' is already on line 2"),
    "no_name.csv": (b"id,full\nada,Ada\n", ":1: no 'name' column"),
    "huge_header.csv": (b"id," + b"n" * 100_000 + b"\nada,Ada\n", ":1: no 'name' column"),
}
TIMES = {
    "month_13.csv": (b"id,submitted_at\nada,2026-13-20T23:59:00+01:00\n", ":2: '2026-13-20T23:59:00+01:00' is not"),
    "no_offset.csv": (b"id,submitted_at\nada,2026-11-20T23:59:00\n", ":2: '2026-11-20T23:59:00' has no offset"),
    "year_9999.csv": (b"id,submitted_at\nada,9999-12-31T23:59:59-23:59\n",
                      ":2: '9999-12-31T23:59:59-23:59' is out of range"),
    "long_id.csv": (f"id,submitted_at\n{LONG},{TIME}\n".encode(), ":2: the id has 100,000 characters"),
    "duplicate.csv": (f"id,submitted_at\nada,{TIME}\nada,{TIME}\n".encode(), ":3: id 'ada' is already on line 2"),
    "bom_utf32.csv": (codecs.BOM_UTF32_LE + f"id,submitted_at\nada,{TIME}\n".encode("utf-32-le"),
                      ":1: UTF-16 or UTF-32"),
}
OVERRIDES = {
    "long_reason.csv": (f"student,exercise,test,points,reason\nada,softmax,,1,{LONG}\n".encode(),
                        ":2: the reason has 100,000 characters"),
    "nul.csv": (b"student,exercise,test,points,reason\nada,softmax,,1,fine\x00\n", ":2: the reason holds a control"),
    "infinite.csv": (b"student,exercise,test,points,reason\nada,softmax,,1e400,r\n", ":2: points should be a number"),
    "long_student.csv": (f"student,exercise,test,points,reason\n{'a' * 5000},softmax,,1,r\n".encode(),
                         ":2: the student has 5,000 characters"),
    "huge_header.csv": (b"student,exercise,test,points," + b"r" * 100_000 + b"\n", ":1: the columns should be"),
    "unknown_student.csv": (f"student,exercise,test,points,reason\n{'z' * 4000},softmax,,1,r\n".encode(),
                            ":2: no student 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz..."),
}
ASSIGNMENTS = {
    "deep.toml": (b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n" + EXERCISE,
                  ": invalid TOML (RecursionError: maximum recursion depth exceeded)"),
    "deep_table.toml": (EXERCISE + b"[late]\nextensions = " + b"{a=" * 5000 + b"1" + b"}" * 5000 + b"\n",
                        ": invalid TOML (RecursionError"),
    "long_integer.toml": (b"x = " + b"1" * 5000 + b"\n" + EXERCISE, ": invalid TOML (ValueError: Exceeds the limit"),
    "not_utf8.toml": (b'title = "\xff"\n' + EXERCISE, ":1: not UTF-8 text (save it as UTF-8)"),
    "utf16.toml": (('title = "t"\n' + EXERCISE.decode()).encode("utf-16"), ":1: UTF-16 or UTF-32 text"),
    "too_big.toml": (b"# " + b"x" * 1_000_000 + b"\n" + EXERCISE, ": too large (more than 1,000,000 bytes)"),
    "nul.toml": (b'title = "a\x00"\n' + EXERCISE, ":1: invalid TOML: Illegal character '\\x00' (column 11)"),
    "month_13.toml": (b"due = 2026-13-20T23:59:00+01:00\n" + EXERCISE, ":1: invalid TOML: Expected newline"),
    "long_title.toml": (b'title = "' + b"t" * 100_000 + b'"\n' + EXERCISE, ":1: title has 100,000 characters"),
    "escape_title.toml": (b'title = "Week \\u001b[2J 3"\n' + EXERCISE, ":1: title holds a control character"),
    "long_file.toml": (EXERCISE + b'file = "' + b"f" * 300 + b'.py"\n', ":1: file of 'softmax' should be a file name"),
    "long_id.toml": (b'[[exercise]]\nid = "' + b"s" * 5000 + b'"\n', ":1: id has 5,000 characters"),
    "nul_id.toml": (b'[[exercise]]\nid = "soft\\u0000max"\n', ":1: id holds a control character"),
    "long_extension.toml": (POLICY + b'[late.extensions]\n"' + b"9" * 5000 + b'" = 2026-11-22T23:59:00+01:00\n',
                            ":7: extension of '99999999999999999999999999999999999999999999999999999999..."),
    "extension_9999.toml": (POLICY + b'[late.extensions]\n"ada" = 9999-12-31T23:59:59-23:59\n',
                            ":7: extension of 'ada' is out of range"),
}


HOSTILE = {"roster": ROSTERS, "times": TIMES, "overrides": OVERRIDES, "assignment": ASSIGNMENTS}


def grader(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A class of one (ada.py) and a results file for it, as a batch writes one."""
    folder = tmp_path_factory.mktemp("instructor_files")
    (folder / "class").mkdir()
    (folder / "class" / "ada.py").write_text(SOLUTION)
    graded = {"submission": "ada.py", "exercise": "softmax", "submission_sha256": "1" * 64, "tests_sha256": "2" * 64,
              "graded_at": "2026-11-25T10:00:00+00:00", "grader_version": "1.1.0", "passed": True, "error": None,
              "stdout": "", "score": 1, "max_score": 1,
              "tests": [{"name": "Shape", "status": "passed", "message": "", "duration_ms": 1.0, "stdout": "",
                         "score": 1, "max_score": 1}]}
    record = {**graded, "results_sha256": results_checksum(graded),
              "student": {"id": "ada", "name": "ada", "email": None, "login": None}}
    (folder / "results.jsonl").write_text(json.dumps(record) + "\n")
    return folder


def commands(folder):
    """(file, its bytes, the start of its line, the command that reads it) for every hostile file."""
    out = folder / "out.jsonl"
    reading = {"roster": lambda path: ("batch", "softmax", folder / "class", "--roster", path, "--out", out),
               "times": lambda path: ("batch", "softmax", folder / "class", "--times", path, "--out", out),
               "overrides": lambda path: ("report", folder / "results.jsonl", "--overrides", path,
                                          "--reports", folder / "reports"),
               "assignment": lambda path: ("batch", folder / "class", "--assignment", path, "--out", out)}
    for kind, files in HOSTILE.items():
        (folder / kind).mkdir(exist_ok=True)
        for name, (data, says) in files.items():
            yield folder / kind / name, data, says, reading[kind](folder / kind / name)


def test_each_hostile_instructor_file_is_one_line_and_exit_2(folder, capsys):
    """Through the command line's entry point, in this process (each is refused before any grading); the
    first file of each kind through `python -m grader` as well."""
    cases = list(commands(folder))
    for path, data, _, _ in cases:
        path.write_bytes(data)
    for path, _, says, command in cases:
        assert main(list(map(str, command))) == 2, path
        stdout, stderr = capsys.readouterr()
        assert stderr.startswith(f"error: {path}{says}"), (path, stderr[:500])
        assert len(stderr.splitlines()) == 1 and len(stderr) < 600, (path, stderr[:500])
    firsts = [case for case in cases if case[0].name == next(iter(HOSTILE[case[0].parent.name]))]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda case: grader(*case[3]), firsts))
    for (path, _, says, _), run in zip(firsts, runs):
        assert run.returncode == 2 and run.stderr.startswith(f"error: {path}{says}"), (path, run.stderr[-2000:])
        assert len(run.stderr.splitlines()) == 1, (path, run.stderr[:500])
    assert len(firsts) == 4 and not (folder / "out.jsonl").exists() and not (folder / "reports").exists()


def test_a_roster_at_the_records_limits_goes_through_a_batch_and_report_reads_it_back(folder, tmp_path):
    """A roster saved by a spreadsheet (byte-order mark, CRLF) with a student as long-named as a record allows,
    who handed in nothing: the batch records them, and `report` (and a resumed batch) read the records back."""
    long_name = "L" * (NAME_LIMIT - ABSENT_ROOM - len("10002"))
    roster = tmp_path / "roster.csv"
    roster.write_bytes(codecs.BOM_UTF8 + f"id,name\r\nada,Ada\r\n10002,{long_name}\r\n".encode())
    out, reports = tmp_path / "results.jsonl", tmp_path / "reports"
    batch = grader("batch", "softmax", folder / "class", "--roster", roster, "--out", out, "--reports", reports,
                   "--timeout", "5")
    assert batch.returncode == 0, batch.stderr
    records = {r["student"]["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert records["ada"]["passed"] and records["10002"]["missing"] == "no submission"
    assert records["10002"]["student"]["name"] == long_name
    report = grader("report", out, "--exercise", "softmax", "--reports", tmp_path / "again")
    assert report.returncode == 0, report.stderr
    assert (tmp_path / "again" / "feedback_moodle.zip").stat().st_size > 0
    resumed = grader("batch", "softmax", folder / "class", "--roster", roster, "--out", out, "--timeout", "5")
    assert resumed.returncode == 0 and "1 of 1 already graded" in resumed.stderr, resumed.stderr  # reused

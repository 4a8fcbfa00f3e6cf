"""Every reader of a results file checks each record in full (grader/instructor/records.py): `grader report` and a
resumed batch refuse a tampered file with one line naming the file, the line and the field, exit 2, and write
nothing.  Control characters a submission writes reach no output as they are."""

import csv
import json
import unicodedata
import zipfile
from pathlib import Path

import pytest

from grader.instructor.records import results_checksum
from test_batch import batch, copy_cases
from test_submission_files import grader

HOSTILE = '''import numpy as np


def sinusoidal_pe(T, C):
    print("\\x1b[2J\\x1b[31mFAKE\\r\\x00\\u202egnp.exe\\x85\\u2028\\x9b")
    raise ValueError("\\x1b[1A\\x1b[2K all tests passed\\r\\u202eevil\\x00")
'''
UNSAFE = ("Cc", "Cf", "Cs", "Zl", "Zp")


def unsafe(text):
    """The control and format characters in `text`, but line breaks and tabs."""
    return {ch for ch in text if ch not in "\n\t" and unicodedata.category(ch) in UNSAFE}


def strings(value):
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class with a hostile submission (control characters in its output and exception) and a name that
    starts with a space then `=`, graded with every report."""
    tmp = tmp_path_factory.mktemp("records")
    folder = copy_cases(tmp / "class", {"good.py": "correct_vectorised.py", " =cmd.py": "wrong_shape.py"})
    (folder / "hostile.py").write_text(HOSTILE)
    out = tmp / "results.jsonl"
    process = batch("sinusoidal_pe", str(folder), "--out", str(out), "--timeout", "5", "--reports",
                    str(tmp / "reports"))
    assert process.returncode == 0, process.stderr
    return tmp, out, process


def test_no_output_holds_a_control_character_from_a_submission(graded):
    tmp, out, process = graded
    assert unsafe(process.stdout + process.stderr) == set()
    files = [out] + sorted(p for p in (tmp / "reports").rglob("*") if p.is_file())
    assert {p.name for p in files} >= {"results.jsonl", "gradebook.csv", "report.html", "junit.xml", "summary.txt"}
    texts = {path: path.read_text() for path in files if path.suffix != ".zip"}
    with zipfile.ZipFile(tmp / "reports" / "feedback_moodle.zip") as archive:  # the feedback pages, for Moodle
        texts |= {Path(name): archive.read(name).decode() for name in archive.namelist()}
    for path, text in texts.items():
        assert unsafe(text) == set(), path
        if path.suffix == ".json":
            assert all(unsafe(s) == set() for s in strings(json.loads(text))), path
    # The results file keeps the data exactly (as JSON escapes); the reports show escapes as text.
    record = next(json.loads(line) for line in out.read_text().splitlines() if '"hostile.py"' in line)
    assert "\x1b[1A\x1b[2K all tests passed \u202eevil\x00" in record["tests"][0]["message"]
    assert "\x85\u2028\x9b" in record["stdout"]
    feedback = next((tmp / "reports" / "feedback").glob("hostile*.md")).read_text()
    assert "\\x1b[1A\\x1b[2K all tests passed \\u202eevil\\x00" in feedback


def test_a_name_with_spaces_before_a_formula_is_neutralised(graded):
    tmp, _, _ = graded
    rows = list(csv.reader((tmp / "reports" / "gradebook.csv").open()))
    assert [row[:2] for row in rows[1:]] == [["' =cmd", "' =cmd"], ["good", "good"], ["hostile", "hostile"]]


def valid_record(graded):
    _, out, _ = graded
    return json.loads(next(line for line in out.read_text().splitlines() if '"hostile.py"' in line))


# (where in the record, the value written there, the field the error names); None as a path end removes it.
TAMPERED = [
    (("submission",), "", "submission"),
    (("submission",), 5, "submission"),
    (("submission",), "\ud800", "submission"),
    (("submission",), "x" * 5000, "submission"),
    (("exercise",), "../etc", "exercise"),
    (("submission_sha256",), "abc", "submission_sha256"),
    (("tests_sha256",), None, "tests_sha256"),
    (("graded_at",), "yesterday", "graded_at"),
    (("grader_version",), 1, "grader_version"),
    (("passed",), True, "passed"),
    (("passed",), "false", "passed"),
    (("error",), 3, "error"),
    (("stdout",), None, "stdout"),
    (("stdout",), "x" * 40_000, "stdout"),
    (("score",), 1e308, "score"),
    (("score",), -1, "score"),
    (("score",), "6", "score"),
    (("max_score",), 1e300, "max_score: "),
    (("max_score",), float("inf"), "not JSON)"),   # Infinity: JSON has no such number
    (("missing",), "gone", "missing"),
    (("colour",), "red", "'colour'"),
    (("reupload",), {"graded": "softmax-1.py"}, "reupload"),
    (("reupload",), {"graded": "softmax-1.py", "superseded": []}, "reupload.superseded"),
    (("reupload",), {"graded": "softmax-1.py", "superseded": [1]}, "reupload.superseded.0"),
    (("tests",), {}, "tests"),
    (("tests", 0), "a test", "tests[0]"),
    (("tests", 0, "message"), None, "tests[0].message"),
    (("tests", 0, "duration_ms"), "12", "tests[0].duration_ms"),
    (("tests", 0, "duration_ms"), -5, "tests[0].duration_ms"),
    (("tests", 1, "status"), "won", "tests[1].status"),
    (("tests", 1, "name"), "", "tests[1].name"),
    (("tests", 1, "stdout"), ["x"], "tests[1].stdout"),
    (("tests", 2, "score"), 1, "tests[2].score"),
    (("tests", 2, "max_score"), 1e10, "tests[2].max_score"),
    (("tests", 2, "extra"), 1, "tests[2].'extra'"),
]


def tamper(record, path, value):
    *parents, last = path
    target = record
    for key in parents:
        target = target[key]
    if value is None and last != "error":
        del target[last]
    else:
        target[last] = value
    return record


@pytest.mark.parametrize("path, value, field", TAMPERED, ids=[f"{'.'.join(map(str, p))}={str(v)[:12]!r}"
                                                             for p, v, _ in TAMPERED])
def test_report_refuses_a_tampered_record_naming_the_line_and_field(graded, tmp_path, path, value, field):
    _, out, _ = graded
    lines = out.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"hostile.py"' in line)
    lines[index] = json.dumps(tamper(valid_record(graded), path, value))
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    process, _ = grader("report", str(tampered), "--reports", str(tmp_path / "reports"))
    assert process.returncode == 2
    assert process.stderr.startswith(f"error: {tampered}:{index + 1}: not a results record ({field}")
    assert len(process.stderr.splitlines()) == 1 and "Traceback" not in process.stderr
    assert not (tmp_path / "reports").exists()


def test_report_refuses_records_of_one_exercise_with_other_tests(graded, tmp_path):
    _, out, _ = graded
    lines = out.read_text().splitlines()
    record = json.loads(lines[1])
    record["tests"] = record["tests"][:2]
    record.update(score=sum(t["score"] for t in record["tests"]), max_score=2)
    record["results_sha256"] = results_checksum(record)  # as the batch of another version of the tests wrote it
    lines[1] = json.dumps(record)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    process, _ = grader("report", str(tampered), "--reports", str(tmp_path / "reports"))
    assert process.returncode == 2
    assert process.stderr.startswith(f"error: {tampered}:2: not a results record (tests: not the tests (names and "
                                     "points) of line 1")
    assert not (tmp_path / "reports").exists()


def test_a_resumed_batch_refuses_a_tampered_record_untouched(graded, tmp_path):
    tmp, out, _ = graded
    lines = out.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"hostile.py"' in line)
    lines[index] = json.dumps(tamper(valid_record(graded), ("tests", 0, "duration_ms"), "12"))
    tampered = tmp_path / "results.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    before = tampered.read_bytes()
    process = batch("sinusoidal_pe", str(tmp / "class"), "--out", str(tampered))
    assert process.returncode == 2
    assert f"{tampered}:{index + 1}: not a results record (tests[0].duration_ms: " in process.stderr
    assert tampered.read_bytes() == before


def test_report_makes_the_same_outputs_from_an_untouched_file(graded, tmp_path):
    tmp, out, _ = graded
    process, _ = grader("report", str(out), "--reports", str(tmp_path / "again"), "--exercise", "sinusoidal_pe")
    assert process.returncode == 0, process.stderr
    for name in ("gradebook.csv", "junit.xml", "report.html"):
        assert (tmp_path / "again" / name).read_text() == (tmp / "reports" / name).read_text()

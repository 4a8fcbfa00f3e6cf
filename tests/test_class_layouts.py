"""Class folders as LMSs export them (Canvas, Moodle, Gradescope, plain folders): the layout recognised, each
hand-in mapped to a student with an id and a time, files found in upload folders, a roster joined, and the
files an LMS imports (Canvas and Moodle grade CSVs, a feedback page per student, Moodle's feedback zip)."""

import csv
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader.exercise import EXERCISES_DIR
from grader.instructor.roster import read_roster
from grader.instructor.classfolder.times import read_times
from grader.instructor.tables import TableError

SOFTMAX, LAYER_NORM = EXERCISES_DIR / "softmax" / "solution.py", EXERCISES_DIR / "layer_norm" / "solution.py"
WRONG_SOFTMAX = EXERCISES_DIR / "softmax" / "mutants" / "forgot_return.py"
HOSTILE = '<script>alert("x")</script> & =cmd'


def grader(*args):
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def lay_out(folder, files):
    """`folder` holding {relative path: a source file's path, or text}."""
    for name, content in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            shutil.copy(content, target)
        else:
            target.write_text(content, encoding="utf-8")
    return folder


def records_of(path):
    return {(r["submission"], r["exercise"]): r for r in map(json.loads, path.read_text().splitlines())}


def rows(path):
    return list(csv.reader(path.open(newline="", encoding="utf-8")))


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("course")
    (root / "hw.toml").write_text('title = "HW3"\n\n[[exercise]]\nid = "softmax"\nweight = 2\n\n'
                                  '[[exercise]]\nid = "layer_norm"\n')
    return root


def batch(course, folder, *options):
    out = folder.parent / f"{folder.name}.jsonl"
    process = grader("batch", folder, "--assignment", course / "hw.toml", "--out", out,
                     "--reports", folder.parent / f"{folder.name}-reports", "--timeout", "5", *options)
    return process, out, folder.parent / f"{folder.name}-reports"


@pytest.fixture(scope="module")
def canvas(course):
    """Canvas's flat export, a roster (one student absent, one hand-in not listed) and a times file."""
    folder = lay_out(course / "canvas", {
        "doe_jane_12345_67890_softmax.py": SOFTMAX, "doe_jane_12345_67890_layer_norm.py": LAYER_NORM,
        "roe_rick_LATE_222_333_softmax-1.py": "\ufeff" + SOFTMAX.read_text(),  # a BOM, a re-upload, late
        "moe_max_444_555_softmax.py": WRONG_SOFTMAX, "moe_max_444_555_layer_norm.py": LAYER_NORM,
    })
    (course / "roster.csv").write_text(
        "\ufeffID,Name,Email,LMS login,Section\n12345,\"Doe, Jane\",jane@example.com,jdoe,A\n"
        f"222,{HOSTILE},rick@example.com,rroe,B\n999,Absent Anna,anna@example.com,aanna,A\n", encoding="utf-8")
    (course / "times.csv").write_text("id,submitted_at\n12345,2026-11-20T23:59:00+01:00\n31337,2026-11-20T10:00Z\n")
    return batch(course, folder, "--roster", course / "roster.csv", "--times", course / "times.csv")


def test_canvas_export_is_recognised_and_each_file_is_one_students(canvas):
    process, out, _ = canvas
    assert process.returncode == 0, process.stderr
    assert "Layout: Canvas export" in process.stderr and "3 student(s) found" in process.stderr
    assert "warning: --times: no student has the id 31337" in process.stderr
    records = records_of(out)
    jane, rick, max_ = (records[(name, "softmax")] for name in ("doe_jane_12345", "roe_rick_222", "moe_max_444"))
    assert jane["student"] == {"id": "12345", "name": "Doe, Jane", "email": "jane@example.com", "login": "jdoe",
                               "section": "A", "in_roster": True}
    assert jane["passed"] and jane["submitted_at"] == "2026-11-20T23:59:00+01:00" and not jane["late_marker"]
    assert rick["passed"] and rick["late_marker"] and rick["submitted_at"] is None  # BOM and -1 suffix: graded
    assert records[("roe_rick_222", "layer_norm")]["missing"] == "layer_norm.py: no such file"
    assert max_["student"]["in_roster"] is False and not max_["passed"]
    absent = [records[("Absent Anna (999)", e)] for e in ("softmax", "layer_norm")]
    assert all(r["missing"] == "no submission" and r["score"] == 0 for r in absent)


def test_students_not_in_the_roster_are_listed(canvas):
    process, _, reports = canvas
    listed = "Not in the roster, graded all the same (1):\n  moe_max_444 (id 444)"
    assert listed in process.stdout and listed in (reports / "summary.txt").read_text()
    assert "<h2>Not in the roster</h2><p>Graded all the same: moe_max</p>" in (reports / "report.html").read_text()


def test_gradebook_and_lms_import_files_carry_the_students_identity(canvas):
    _, _, reports = canvas
    gradebook = {row[1]: row for row in rows(reports / "gradebook.csv")}
    assert gradebook["id"][:7] == ["student", "id", "email", "login", "total", "max_total", "percentage"]
    assert gradebook["12345"][:7] == ["Doe, Jane", "12345", "jane@example.com", "jdoe", "22", "22", "100.00"]
    assert gradebook["999"][:5] == ["Absent Anna", "999", "anna@example.com", "aanna", "0"]
    assert gradebook["222"][0] == HOSTILE  # a roster name with markup stays text
    canvas_rows = rows(reports / "canvas_import.csv")
    assert canvas_rows[:2] == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "HW3"],
                               ["    Points Possible", "", "", "", "", "22"]]
    assert ["Doe, Jane", "12345", "", "jdoe", "A", "22"] in canvas_rows
    moodle_rows = rows(reports / "moodle_import.csv")  # no ID number: the roster gives none
    assert moodle_rows[0] == ["Full name", "Email address", "Username", "HW3"]
    assert ["Absent Anna", "anna@example.com", "aanna", "0"] in moodle_rows
    assert len(canvas_rows) == 2 + 3 and len(moodle_rows) == 1 + 3  # the roster's students
    assert rows(reports / "not_imported.csv") == [  # softmax 0 x 2 + layer_norm 8
        ["submission", "name", "id", "email", "login", "HW3", "why not imported"],
        ["moe_max_444", "moe_max", "444", "", "", "8", "not on the roster"]]


def test_feedback_is_a_self_contained_escaped_page_per_student_and_a_moodle_zip(canvas):
    _, _, reports = canvas
    pages = sorted((reports / "feedback").glob("*.html"))
    assert len(pages) == 4
    rick = next(p.read_text() for p in pages if p.name.startswith("roe_rick"))
    assert "<script" not in rick and "&lt;script&gt;" in rick and "<style>" in rick
    assert "http" not in rick.replace('lang="en"', "") and "<link" not in rick and "src=" not in rick
    assert "layer_norm.py: no such file" in rick
    with zipfile.ZipFile(reports / "feedback_moodle.zip") as archive:
        names = sorted(archive.namelist())
        assert "Doe, Jane_12345_assignsubmission_file_/feedback.html" in names and len(names) == 4
        assert all(name.count("/") == 1 and name.endswith("_assignsubmission_file_/feedback.html") for name in names)
        jane = archive.read("Doe, Jane_12345_assignsubmission_file_/feedback.html").decode()
    assert "Total: 22 / 22 points" in jane


@pytest.fixture(scope="module")
def moodle(course):
    """Moodle's export: folders per participant, files nested in upload folders, an ambiguous hand-in."""
    return batch(course, lay_out(course / "moodle", {
        "Ada Lovelace_10000_assignsubmission_file_/softmax.py": SOFTMAX,
        "Ada Lovelace_10000_assignsubmission_file_/hw3/layer_norm.py": LAYER_NORM,
        "Ada Lovelace_10000_assignsubmission_onlinetext_/onlinetext.html": "<p>done</p>",
        "Bob Byron_10001_assignsubmission_file_/sub/hw3/softmax.py": SOFTMAX,
        "Bob Byron_10001_assignsubmission_file_/v1/layer_norm.py": LAYER_NORM,
        "Bob Byron_10001_assignsubmission_file_/v2/layer_norm.py": LAYER_NORM,
        "__MACOSX/._junk": "",
    }))


def test_moodle_export_finds_nested_files_and_reports_ambiguous_ones(moodle):
    process, out, reports = moodle
    assert process.returncode == 0, process.stderr
    assert "Layout: Moodle export" in process.stderr and "2 student(s) found" in process.stderr
    records = records_of(out)
    ada, bob = "Ada Lovelace_10000_assignsubmission_file_", "Bob Byron_10001_assignsubmission_file_"
    assert records[(ada, "layer_norm")]["passed"] and records[(ada, "softmax")]["passed"]
    assert records[(ada, "softmax")]["student"] == {"id": "10000", "name": "Ada Lovelace", "email": None,
                                                    "login": None}
    assert records[(bob, "softmax")]["passed"]
    assert records[(bob, "layer_norm")]["missing"] == \
        "2 files could be layer_norm.py (v1/layer_norm.py, v2/layer_norm.py): hand in one"
    assert "__MACOSX: not named as in a Moodle export" in process.stdout
    with zipfile.ZipFile(reports / "feedback_moodle.zip") as archive:
        assert sorted(archive.namelist()) == [f"{ada}/feedback.html", f"{bob}/feedback.html"]


METADATA = """\
submission_90000:
  :submitters:
  - :name: Ada Lovelace
    :sid: '10000'
    :email: ada@example.com
  :created_at: 2026-11-20 23:59:00.000000000 -08:00
  :score: 10.0
submission_90001:
  :submitters:
  - :name: Pair One
    :sid: 0200
  - :name: Pair Two
    :sid: '201'
    :email: two@example.com
  :created_at: 2026-11-21 10:00:00.000000000 +00:00
"""


@pytest.fixture(scope="module")
def gradescope(course):
    """Gradescope's export of a one-exercise assignment: a solo and a group submission."""
    folder = lay_out(course / "gradescope", {
        "submission_metadata.yml": METADATA, "submission_90000/my_softmax.py": SOFTMAX,
        "submission_90001/softmax.py": WRONG_SOFTMAX, "submission_12/softmax.py": SOFTMAX})
    out = course / "gradescope.jsonl"
    return grader("batch", "softmax", folder, "--out", out, "--timeout", "5"), out


def test_gradescope_export_names_each_submitter_with_their_time(gradescope):
    process, out = gradescope
    assert process.returncode == 0, process.stderr
    assert "Layout: Gradescope export" in process.stderr and "3 student(s) found" in process.stderr
    records = records_of(out)
    assert sorted(records) == [("submission_90000", "softmax"), ("submission_90001 (0200)", "softmax"),
                               ("submission_90001 (201)", "softmax")]
    assert records[("submission_90001 (0200)", "softmax")]["student"]["id"] == "0200"  # text, not octal 128
    ada = records[("submission_90000", "softmax")]
    assert ada["passed"] and ada["submitted_at"] == "2026-11-20T23:59:00-08:00"
    assert ada["student"] == {"id": "10000", "name": "Ada Lovelace", "email": "ada@example.com", "login": None}
    two = records[("submission_90001 (201)", "softmax")]
    assert two["student"]["name"] == "Pair Two" and two["submitted_at"] == "2026-11-21T10:00:00+00:00"
    assert "submission_12: not listed in submission_metadata.yml" in process.stdout


GOOD_SUBMITTER = "submission_1:\n  :submitters:\n  - :name: Ada\n    :sid: '1'\n"


@pytest.mark.parametrize("metadata, expected", [
    (GOOD_SUBMITTER + "  :created_at: 2026-13-20 23:59:00.000000000 -08:00\n",
     "submission_metadata.yml:5: submission_1: :created_at: '2026-13-20 23:59:00.000000000 -08:00': month must be "
     "in 1..12"),
    (GOOD_SUBMITTER + "  :created_at: 2026-11-20 23:59:00\n",
     "submission_metadata.yml:5: submission_1: :created_at: '2026-11-20 23:59:00': not ISO 8601 with an offset"),
    ("a: " + "[" * 100_000 + "]" * 100_000 + "\n", "submission_metadata.yml:1: nested more than 10 levels deep"),
    ("".join("  " * depth + f"k{depth}:\n" for depth in range(5000)),
     "submission_metadata.yml:11: nested more than 10 levels deep"),
    ("x: &a\n  :submitters:\n  - :sid: '1'\nsubmission_1: *a\n",
     "submission_metadata.yml:4: an alias (*a): Gradescope's file has none"),
    ("submission_1:\n  :submitters:\n  - :name: " + "x" * 5000 + "\n    :sid: '1'\n",
     "submission_metadata.yml:3: submission_1: :name: is longer than 4096 characters (it has 5000)"),
    ("submission_1:\n  :submitters:\n  - :sid: [1, 2]\n",
     "submission_metadata.yml:3: :sid: should be text, not a list or a mapping"),
    (GOOD_SUBMITTER + GOOD_SUBMITTER, "submission_metadata.yml:5: submission_1 is listed twice"),
    ("- submission_1\n", "submission_metadata.yml:1: should map each submission's folder to its submitters"),
    ("submission_1:\n\t:submitters: []\n", "submission_metadata.yml:2: not YAML (found character '\\t' that "
                                             "cannot start any token)"),
    (b"submission_1: \xff\n", "submission_metadata.yml: not UTF-8 (byte 15)"),
], ids=["month 13", "no offset", "deep lists", "deep mappings", "alias", "long name", "sid a list", "listed twice",
        "not a mapping", "tab", "not UTF-8"])
def test_a_damaged_gradescope_metadata_file_is_one_line_naming_it(tmp_path, metadata, expected):
    folder = lay_out(tmp_path / "gs", {"submission_1/softmax.py": SOFTMAX})
    (folder / "submission_metadata.yml").write_bytes(metadata if isinstance(metadata, bytes) else metadata.encode())
    process = grader("batch", "softmax", folder, "--out", tmp_path / "gs.jsonl")
    assert process.returncode == 2 and "Traceback" not in process.stderr, process.stderr
    error, = [line for line in process.stderr.splitlines() if line.startswith("error:")]
    assert error.startswith(f"error: {folder / expected.split(':')[0]}:") and expected in error, error
    assert not (tmp_path / "gs.jsonl").exists()


@pytest.fixture(scope="module")
def plain(course):
    """Per-student folders, one with its files in an upload folder, one with two that could be softmax.py."""
    return batch(course, lay_out(course / "plain", {
        "alice/sub/hw3/softmax.py": SOFTMAX, "alice/sub/hw3/layer_norm.py": LAYER_NORM,
        "bob/a/softmax.py": SOFTMAX, "bob/b/softmax.py": SOFTMAX, "bob/layer_norm.py": LAYER_NORM}))


def test_plain_folders_are_searched_for_nested_files(plain):
    process, out, _ = plain
    assert process.returncode == 0, process.stderr
    assert "Layout: plain folder" in process.stderr
    records = records_of(out)
    assert records[("alice", "softmax")]["passed"] and records[("alice", "layer_norm")]["passed"]
    assert records[("alice", "softmax")]["student"] == {"id": "alice", "name": "alice", "email": None,
                                                       "login": None}
    assert records[("bob", "softmax")]["missing"] == \
        "2 files could be softmax.py (a/softmax.py, b/softmax.py): hand in one"
    assert records[("bob", "layer_norm")]["passed"]


def test_a_rerun_with_a_roster_keeps_the_grades_and_adds_the_identity(course, plain):
    _, out, _ = plain
    roster = course / "plain-roster.csv"
    roster.write_text("id,name,email\nalice,Alice Liddell,alice@example.com\n")
    process, _, _ = batch(course, course / "plain", "--roster", roster)
    assert process.returncode == 0, process.stderr
    assert "already graded" in process.stderr and "] alice" not in process.stderr
    alice = records_of(out)[("alice", "softmax")]
    assert alice["passed"] and alice["student"]["name"] == "Alice Liddell" and alice["student"]["in_roster"]


def test_a_folder_with_no_student_is_exit_2_and_writes_nothing(course, tmp_path):
    folder = lay_out(tmp_path / "class", {"notes.txt": "hello", "data.csv": "1,2"})
    process, out, reports = batch(course, folder)
    assert process.returncode == 2
    assert "no student found (read as a plain folder" in process.stderr
    assert "notes.txt: not a student's folder" in process.stderr
    assert not out.exists() and not reports.exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    process = grader("batch", "softmax", empty, "--out", tmp_path / "e.jsonl")
    assert process.returncode == 2 and "the folder is empty" in process.stderr
    assert not (tmp_path / "e.jsonl").exists()


@pytest.mark.parametrize("text, expected", [
    ("name,email\nAda,a@x\n", "roster.csv:1: no 'id' column"),
    ("id,name\n1,Ada\n2,Bob\n1,Cy\n", "roster.csv:4: id '1' is already on line 2"),
    ("id,name\n1,Ada\n2,\n", "roster.csv:3: no name"),
    ("id,name\n", "roster.csv: lists no student"),
    ('id,name\n1,"Ada\n', "roster.csv:2: not CSV"),
])
def test_a_bad_roster_is_one_line_naming_the_line(tmp_path, text, expected):
    (tmp_path / "roster.csv").write_text(text)
    with pytest.raises(TableError, match=expected.replace("(", r"\(")):
        read_roster(tmp_path / "roster.csv")


@pytest.mark.parametrize("text, expected", [
    ("id,submitted_at\n1,2026-11-20T23:59:00\n", "times.csv:2: '2026-11-20T23:59:00' has no offset"),
    ("id,submitted_at\n1,yesterday\n", "times.csv:2: 'yesterday' is not an ISO 8601 time"),
    ("id,when\n", "times.csv:1: no 'submitted_at' column"),
])
def test_a_bad_times_file_is_one_line_naming_the_line(tmp_path, text, expected):
    (tmp_path / "times.csv").write_text(text)
    with pytest.raises(TableError, match=expected):
        read_times(tmp_path / "times.csv")


def test_bad_input_files_stop_the_batch_before_anything_is_written(course, tmp_path):
    (tmp_path / "roster.csv").write_text("id,name\n1,Ada\n1,Bob\n")
    folder = lay_out(tmp_path / "class", {"ada/softmax.py": SOFTMAX})
    process, out, reports = batch(course, folder, "--roster", tmp_path / "roster.csv")
    assert process.returncode == 2 and "roster.csv:3: id '1' is already on line 2" in process.stderr
    bad = lay_out(tmp_path / "gs", {"submission_metadata.yml": "a: [1,\n  b: ::\n",
                                    "submission_1/softmax.py": SOFTMAX})
    process = grader("batch", "softmax", bad, "--out", tmp_path / "gs.jsonl")
    assert process.returncode == 2 and "submission_metadata.yml:" in process.stderr and "not YAML" in process.stderr
    assert not out.exists() and not reports.exists() and not (tmp_path / "gs.jsonl").exists()

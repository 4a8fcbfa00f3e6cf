"""Submissions are regular files of their own inside the submission folder: links (to a reference solution,
to another learner's file, to /etc, a linked folder, a link inside a learner's folder), hard links, FIFOs and
devices are refused with the reason, in `batch`, `check`, assignments and `gradescope`; a file saved with a
UTF-8 byte-order mark is graded as Python runs it."""

import csv
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from grader.instructor.batch import find_submissions
from grader.core.engine import load_submission
from grader.exercise import EXERCISES_DIR, load_exercise
from grader.submission import SubmissionError

PE = EXERCISES_DIR / "sinusoidal_pe"
SOLUTION = PE / "solution.py"
CORRECT = Path(__file__).parent / "corpus" / "sinusoidal_pe" / "correct_vectorised.py"
BOM = b"\xef\xbb\xbf"
LINK = "a symbolic link (links are never followed: hand in a regular file)"
HARD_LINKS = "has 2 hard links (names): it may be another learner's file or one outside the folder; " \
             "hand in a file of its own"
SECRET = "secret-outside-the-class-folder"


def grader(*args):
    started = time.monotonic()
    process = subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, timeout=300)
    return process, time.monotonic() - started


def not_graded(stdout):
    return stdout.split("Not graded (", 1)[1].split("\n\n")[0].splitlines()[1:]


@pytest.fixture
def secret(tmp_path):
    """A correct solution outside the class folder, holding a string that must never show anywhere."""
    path = tmp_path / "outside" / "secret.py"
    path.parent.mkdir()
    path.write_text(f"# {SECRET}\n" + SOLUTION.read_text())
    return path


def test_a_batch_grades_only_regular_files_of_their_own(tmp_path, secret):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(CORRECT, folder / "alice.py")
    (folder / "bom.py").write_bytes(BOM + CORRECT.read_bytes())
    (folder / "mallory.py").symlink_to(SOLUTION)                     # the reference solution
    (folder / "eve.py").symlink_to("alice.py")                       # another learner's file
    (folder / "host.py").symlink_to("/etc/hostname")                 # a system file, shown in feedback
    (folder / "gone.py").symlink_to(tmp_path / "nowhere.py")
    (folder / "linked_folder").symlink_to(secret.parent)             # a learner's folder that is a link
    (folder / "bob").mkdir()
    (folder / "bob" / "main.py").symlink_to(secret)                  # a link inside a learner's folder
    os.link(secret, folder / "hard_outside.py")                      # a hard link to a file outside
    shutil.copy(CORRECT, folder / "carol.py")
    os.link(folder / "carol.py", folder / "hard_carol.py")           # a hard link to another learner's file
    os.mkfifo(folder / "fifo.py")
    out = tmp_path / "results.jsonl"
    process, _ = grader("batch", "sinusoidal_pe", str(folder), "--out", str(out), "--timeout", "5",
                        "--reports", str(tmp_path / "reports"))
    assert process.returncode == 0, process.stderr
    records = {r["submission"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(records) == ["alice.py", "bom.py"]
    assert records["bom.py"]["passed"] and records["bom.py"]["score"] == 6
    assert not_graded(process.stdout) == [
        f"  bob: main.py: {LINK}",
        f"  carol.py: {HARD_LINKS}",
        f"  eve.py: {LINK}",
        "  fifo.py: not a regular file (a FIFO)",
        f"  gone.py: {LINK}",
        f"  hard_carol.py: {HARD_LINKS}",
        f"  hard_outside.py: {HARD_LINKS}",
        f"  host.py: {LINK}",
        f"  linked_folder: {LINK}",
        f"  mallory.py: {LINK}",
    ]
    hostname = Path("/etc/hostname").read_text().strip()
    everything = process.stdout + process.stderr + out.read_text() + "".join(
        readable(p) for p in (tmp_path / "reports").rglob("*") if p.is_file())
    assert SECRET not in everything
    assert len(hostname) < 6 or hostname not in everything


def readable(path):
    """The text of a report file; of a zip, its files' (a secret compressed would not show)."""
    if path.suffix != ".zip":
        return path.read_text()
    with zipfile.ZipFile(path) as archive:
        return "".join(archive.read(name).decode() for name in archive.namelist())


def test_a_folder_swapped_for_a_link_after_listing_is_refused_when_read(tmp_path, secret):
    """The check is made on the file opened, every folder on the way opened without following links."""
    folder = tmp_path / "class"
    (folder / "bob").mkdir(parents=True)
    shutil.copy(CORRECT, folder / "bob" / "main.py")
    shutil.copy(CORRECT, folder / "dan.py")
    submissions, _ = find_submissions(folder)
    assert [s.name for s in submissions] == ["bob", "dan.py"]
    shutil.rmtree(folder / "bob")
    (folder / "bob").symlink_to(secret.parent)
    (secret.parent / "main.py").write_text(SOLUTION.read_text())
    os.unlink(folder / "dan.py")
    (folder / "dan.py").symlink_to(secret)
    for submission, expected in zip(submissions, [f"bob: {LINK}", LINK]):
        with pytest.raises(SubmissionError) as error:
            submission.read()
        assert error.value.reason == expected


def hard_link(folder):
    shutil.copy(CORRECT, folder / "a.py")
    os.link(folder / "a.py", folder / "hard.py")
    return folder / "hard.py"


def symlink(folder, name, target):
    (folder / name).symlink_to(target)
    return folder / name


def fifo(folder):
    os.mkfifo(folder / "fifo.py")
    return folder / "fifo.py"


@pytest.mark.parametrize("make, expected", [
    (lambda tmp: symlink(tmp, "link.py", SOLUTION), LINK),
    (lambda tmp: symlink(tmp, "dangling.py", tmp / "none.py"), LINK),
    (hard_link, HARD_LINKS),
    (fifo, "not a regular file (a FIFO)"),
    (lambda tmp: Path("/dev/null"), "not a regular file (a device)"),
    (lambda tmp: tmp, "is a folder, not a Python file"),
])
def test_check_refuses_what_is_not_a_regular_file_of_its_own_with_one_line(tmp_path, make, expected):
    path = make(tmp_path)
    process, elapsed = grader("check", "sinusoidal_pe", str(path))
    assert process.returncode == 2
    assert process.stderr.strip().splitlines()[-1] == f"error: {path}: {expected}"
    assert process.stdout == "" and elapsed < 30


def test_a_file_with_a_byte_order_mark_runs_as_python_runs_it(tmp_path):
    path = tmp_path / "bom.py"
    path.write_bytes(BOM + CORRECT.read_bytes())
    assert subprocess.run([sys.executable, str(path)]).returncode == 0  # Python itself skips the mark
    process, _ = grader("check", "sinusoidal_pe", str(path), "--json")
    assert process.returncode == 0, process.stdout
    assert json.loads(process.stdout)["score"] == 6
    # The same function loads the code in the browser (Pyodide), from the editor's text.
    entry, error = load_submission("sinusoidal_pe", "\ufeff" + CORRECT.read_text())
    assert error is None and entry(2, 4).shape == (2, 4)
    _, error = load_submission("sinusoidal_pe", "x = 1\n\ufeffy = 2\n")  # only a leading mark is skipped
    assert error.startswith("SyntaxError on line 2")


@pytest.fixture
def course(tmp_path):
    (tmp_path / "assignment.toml").write_text('[[exercise]]\nid = "sinusoidal_pe"\nfile = "pe.py"\n'
                                              '[[exercise]]\nid = "softmax"\n')
    return tmp_path


def test_an_assignment_records_a_refused_file_as_0_points_saying_why(course, secret):
    students = course / "class"
    for name in ("ada", "ben"):
        (students / name).mkdir(parents=True)
        shutil.copy(EXERCISES_DIR / "softmax" / "solution.py", students / name / "softmax.py")
    shutil.copy(CORRECT, students / "ada" / "pe.py")
    (students / "ben" / "pe.py").symlink_to(secret)
    (students / "cy").symlink_to(students / "ada")  # a student's folder that is a link to another's
    out = course / "results.jsonl"
    process, _ = grader("batch", str(students), "--assignment", str(course / "assignment.toml"), "--out", str(out),
                        "--timeout", "5")
    assert process.returncode == 0, process.stderr
    records = {(r["submission"], r["exercise"]): r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(records) == [("ada", "sinusoidal_pe"), ("ada", "softmax"), ("ben", "sinusoidal_pe"),
                               ("ben", "softmax")]
    ben = records[("ben", "sinusoidal_pe")]
    assert ben["score"] == 0 and ben["error"] == ben["missing"] == f"pe.py: {LINK}"
    assert records[("ben", "softmax")]["passed"] and records[("ada", "sinusoidal_pe")]["passed"]
    assert not_graded(process.stdout) == [f"  cy: {LINK}"]
    assert SECRET not in process.stdout + process.stderr + out.read_text()


def test_gradescope_refuses_a_link_with_one_line_and_tells_the_student(course, secret):
    submission = course / "submission"
    submission.mkdir()
    (submission / "pe.py").symlink_to(secret)
    shutil.copy(EXERCISES_DIR / "softmax" / "solution.py", submission / "softmax.py")
    results = course / "results" / "results.json"
    process, _ = grader("gradescope", "--assignment", str(course / "assignment.toml"), "--submission",
                        str(submission), "--results", str(results), "--timeout", "5")
    assert process.returncode == 2
    assert [line for line in process.stderr.splitlines() if line.startswith("error:")] == [f"error: pe.py: {LINK}"]
    data = json.loads(results.read_text())
    softmax = [t for t in data["tests"] if t["name"].startswith("softmax: ")]
    assert data["score"] == sum(t["max_score"] for t in softmax) > 0  # softmax's points; none for the link
    assert f"sinusoidal_pe: 0/6 (pe.py: {LINK})" in data["output"]
    assert SECRET not in results.read_text()


def test_a_csv_results_file_keeps_a_refused_file_and_resumes(tmp_path, secret):
    """A CSV row has no `missing` column: a row without a file hash is a file not graded, its error says why."""
    students = tmp_path / "class"
    (students / "ada").mkdir(parents=True)
    (students / "ben").mkdir()
    shutil.copy(EXERCISES_DIR / "softmax" / "solution.py", students / "ada" / "softmax.py")
    (students / "ben" / "softmax.py").symlink_to(secret)
    out = tmp_path / "results.csv"
    first, _ = grader("batch", str(students), "--exercise", "softmax", "--out", str(out), "--timeout", "5")
    assert first.returncode == 0, first.stderr
    again, _ = grader("batch", str(students), "--exercise", "softmax", "--out", str(out), "--timeout", "5")
    assert again.returncode == 0, again.stderr
    assert "1 of 1 already graded" in again.stderr
    [ben] = [row for row in csv.reader(out.open()) if row[0] == "ben"]
    assert ben[:3] == ["ben", "false", "0"] and ben[4] == f"softmax.py: {LINK}"


def test_the_page_engine_in_real_pyodide_skips_the_byte_order_mark_too():
    """The page grades the editor's text with the same engine, in Pyodide (here under Node)."""
    from grader.authoring.validate import grade_in_pyodide, pyodide_dist
    runs = grade_in_pyodide(load_exercise("sinusoidal_pe"), {"bom": "\ufeff" + CORRECT.read_text()}, pyodide_dist())
    assert runs["bom"].error is None and runs["bom"].passed

"""From the LMS download to the LMS import without a wrong row: a class in Canvas's, Moodle's and plain layouts
with re-uploads, exact names holding digits, notebooks, two hand-ins of one student and students off the
roster, checked against a gradebook computed by hand, and each import file read back by the rules its LMS
documents (the readers below), not by this project's own reader."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.exercise import EXERCISES_DIR
from grader.instructor.classfolder import pick_file
from grader.instructor.roster import read_roster
from test_class_layouts import lay_out, rows as table

SOFTMAX, LAYER_NORM = EXERCISES_DIR / "softmax" / "solution.py", EXERCISES_DIR / "layer_norm" / "solution.py"
WRONG_SOFTMAX = EXERCISES_DIR / "softmax" / "mutants" / "forgot_return.py"
SOFTMAX_POINTS, LAYER_NORM_POINTS = 7, 8  # every hidden test passed; the wrong softmax scores 0
HW3 = ('title = "HW3"\n\n[[exercise]]\nid = "softmax"\nweight = 2\nfile = "hw-3.py"\n\n'
       '[[exercise]]\nid = "layer_norm"\n')
HW3_MAX = 2 * SOFTMAX_POINTS + LAYER_NORM_POINTS


def notebook(source):
    """`source` as Jupyter saves a notebook: a Markdown cell, then the code in a code cell."""
    cells = [nbformat.v4.new_markdown_cell("# My work"), nbformat.v4.new_code_cell(Path(source).read_text())]
    return nbformat.writes(nbformat.v4.new_notebook(cells=cells))


def batch(root, name, files, *options, exercise=()):
    """Grade the class folder `name` of `files` (for one `exercise`, else an --assignment in `options`)."""
    folder = lay_out(root / name, files)
    out, reports = root / f"{name}.jsonl", root / f"{name}-reports"
    process = subprocess.run([sys.executable, "-m", "grader", "batch", *exercise, folder, "--out", out,
                              "--reports", reports,
                              "--timeout", "5", *map(str, options)], capture_output=True, text=True, timeout=300)
    assert process.returncode == 0, process.stderr
    records = {(r["submission"], r["exercise"]): r for r in map(json.loads, out.read_text().splitlines())}
    return process, records, reports


# The LMSs' import rules, as their documentation and code state them.

def canvas_import(text, course):
    """{Canvas user id: points} as Canvas's gradebook import reads `text`: the header names the columns, a row
    whose Student is "Points Possible" is the assignment's points, not a student; a row is the course
    student whose ID (Canvas user id) it gives, else whose SIS User ID, else whose SIS Login ID; a row
    matching no student is refused (listed, not imported); a later row for a student replaces an earlier.
    `course`: {Canvas user id: (SIS User ID, SIS Login ID)}."""
    rows = list(csv.DictReader(text.splitlines()))
    grades, unknown = {}, []
    assignment = list(rows[0])[5] if rows else None
    for row in rows:
        if row["Student"].strip() == "Points Possible":
            continue
        user = next((user for user, (sis, login) in course.items() if row["ID"] and row["ID"] == user), None)
        user = user or next((u for u, (sis, _) in course.items() if row["SIS User ID"] and row["SIS User ID"] == sis),
                            None)
        user = user or next((u for u, (_, login) in course.items()
                             if row["SIS Login ID"] and row["SIS Login ID"] == login), None)
        if user is None:
            unknown.append(row["Student"])
        else:
            grades[user] = float(row[assignment])
    return grades, unknown


class MoodleImportAborted(Exception):
    pass


def moodle_import(text, map_from, map_to, users):
    """{Moodle user id: grade} as Moodle's "Import grades: CSV file" (grade/import/csv/classes/load_data.php)
    reads `text` with the column `map_from` mapped to the user field `map_to` ("email", "username",
    "idnumber", "id") and the last column to the grade item: each value trimmed; a line of one cell skipped;
    a blank user cell (PHP's empty(): "" or "0") leaves the user of the line before, and no user at all, or a
    value naming no user, aborts the whole import; a grade is a number, or "" / "-" for none, else the import
    aborts.  `users`: [{"id", "email", "username", "idnumber"}] of the site."""
    reader = csv.reader(text.splitlines())
    header = [cell.strip() for cell in next(reader)]
    column, grade_column = header.index(map_from), len(header) - 1
    grades, user = {}, None
    for line in reader:
        if len(line) <= 1:
            continue
        value = line[column].strip()
        if value not in ("", "0"):
            user = next((u["id"] for u in users if u[map_to] == value), None)
        if user is None:
            raise MoodleImportAborted(f"user mapping error: {value!r}")
        grade = line[grade_column].strip()
        if grade in ("", "-"):
            grades[user] = None
        else:
            try:
                grades[user] = float(grade)
            except ValueError:
                raise MoodleImportAborted(f"bad grade {grade!r}") from None
    return grades


def test_the_readers_apply_the_lms_rules_that_made_the_wrong_rows():
    users = [{"id": 7001, "email": "ada@uni.example", "username": "ada", "idnumber": "S1"},
             {"id": 7002, "email": "bob@uni.example", "username": "bob", "idnumber": "S2"}]
    blank_second = "Full name,Email address,HW\nAda,ada@uni.example,5\nStranger,,9\n"
    assert moodle_import(blank_second, "Email address", "email", users) == {7001: 9.0}  # the previous row's user
    with pytest.raises(MoodleImportAborted):
        moodle_import("Full name,Email address,HW\nStranger,,9\nAda,ada@uni.example,5\n", "Email address", "email",
                      users)
    canvas = ('Student,ID,SIS User ID,SIS Login ID,Section,HW\n    Points Possible,,,,,10\nAda,101,,,,4\n'
              'Ada again,101,,,,6\nBob,,S2,,,7\nNobody,999,,,,1\n')
    assert canvas_import(canvas, {"101": ("S1", "ada"), "102": ("S2", "bob")}) == ({"101": 6.0, "102": 7.0},
                                                                                  ["Nobody"])


# What a student's upload is graded on.

def test_the_name_asked_for_comes_first_and_the_last_re_upload_is_graded():
    files = {name: f"/class/{name}" for name in ("hw-3.py", "hw-3-1.py", "hw-3-9.py", "hw-3-10.py", "hw-30.py")}
    picked = pick_file(files, "hw-3.py")
    assert (picked.inner, picked.superseded) == ("hw-3-10.py", ("hw-3.py", "hw-3-1.py", "hw-3-9.py"))
    exact = pick_file({"hw-3.py": "/class/hw-3.py", "hw.py": "/class/hw.py"}, "hw-3.py")
    assert (exact.inner, exact.superseded, exact.problem) == ("hw-3.py", (), None)
    assert pick_file({"hw-3.py": "/x"}, "hw.py").inner == "hw-3.py"  # Canvas's third upload of hw.py
    assert pick_file({"softmax.py": "/a", "softmax-1.ipynb": "/b"}, "softmax.py").inner == "softmax.py"
    apart = pick_file({"a/softmax.py": "/a", "b/softmax-1.py": "/b"}, "softmax.py")
    assert apart.inner is None and apart.problem == "2 files could be softmax.py (a/softmax.py, b/softmax-1.py): hand in one"
    same = pick_file({"softmax-1.py": "/a", "softmax-01.py": "/b"}, "softmax.py")
    assert same.inner is None and "2 files could be softmax.py" in same.problem


def test_canvas_s_own_gradebook_export_is_a_roster(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text(CANVAS_GRADEBOOK_EXPORT, encoding="utf-8")
    students = read_roster(path).students
    assert [s["id"] for s in students] == ["101", "102", "103", "105"]
    assert students[0] == {"id": "101", "name": "Lovelace, Ada", "email": None, "login": "alovelace",
                           "sis_id": "S-001", "section": "Sec A"}


CANVAS_GRADEBOOK_EXPORT = (  # Grades > Export: its Points Possible row, its assignment and score columns
    "\ufeffStudent,ID,SIS User ID,SIS Login ID,Integration ID,Section,HW2 (555),Current Score,Final Score\n"
    "    Points Possible,,,,,,10.00,(read only),(read only)\n"
    '"Lovelace, Ada",101,S-001,alovelace,,Sec A,9.00,90.00,90.00\n'
    '"Hopper, Bob",102,S-002,bhopper,,Sec A,,,0.00\n'
    '"Turing, Cy",103,S-003,cturing,,Sec B,5.00,50.00,50.00\n'
    '"Noether, Eve",105,S-005,enoether,,Sec B,,,0.00\n')


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    root = tmp_path_factory.mktemp("lms")
    (root / "hw3.toml").write_text(HW3)
    return root


@pytest.fixture(scope="module")
def canvas(root):
    (root / "canvas_roster.csv").write_text(CANVAS_GRADEBOOK_EXPORT, encoding="utf-8")
    return batch(root, "canvas", {
        "lovelace_ada_101_9001_hw-3.py": WRONG_SOFTMAX, "lovelace_ada_101_9002_hw-3-1.py": SOFTMAX,  # re-upload
        "lovelace_ada_101_9003_layer_norm.py": LAYER_NORM,
        "hopper_bob_102_9004_hw-3.py": SOFTMAX,  # the name asked for holds digits
        "turing_cy_103_9005_hw-3.py": SOFTMAX, "turing_cy_103_9006_hw-3-1.py": SOFTMAX,
        "turing_cy_103_9007_hw-3-2.py": WRONG_SOFTMAX,  # the last upload is the one graded, wrong as it is
        "turing_cy_103_9008_layer_norm.ipynb": notebook(LAYER_NORM),
        "curie_dee_104_9009_hw-3.py": SOFTMAX,  # not on the roster
    }, "--assignment", root / "hw3.toml", "--roster", root / "canvas_roster.csv")


def test_canvas_class_grades_the_last_upload_and_lists_the_others(canvas):
    process, records, reports = canvas
    ada, bob, cy = (records[(name, "softmax")] for name in ("lovelace_ada_101", "hopper_bob_102", "turing_cy_103"))
    assert ada["score"] == SOFTMAX_POINTS and ada["reupload"] == {"graded": "hw-3-1.py", "superseded": ["hw-3.py"]}
    assert bob["score"] == SOFTMAX_POINTS and "reupload" not in bob
    assert cy["score"] == 0 and cy["reupload"] == {"graded": "hw-3-2.py", "superseded": ["hw-3.py", "hw-3-1.py"]}
    assert records[("turing_cy_103", "layer_norm")]["score"] == LAYER_NORM_POINTS  # a notebook for layer_norm.py
    assert "turing_cy_103: graded hw-3-2.py, superseded hw-3.py, hw-3-1.py" in process.stdout
    feedback = next((reports / "feedback").glob("turing_cy*.md")).read_text()
    assert "Graded hw-3-2.py, your last upload; not graded (superseded by it): hw-3.py, hw-3-1.py." in feedback


def test_canvas_import_gives_each_roster_student_their_grade(canvas):
    _, _, reports = canvas
    text = (reports / "canvas_import.csv").read_text()
    course = {"101": ("S-001", "alovelace"), "102": ("S-002", "bhopper"), "103": ("S-003", "cturing"),
              "104": ("S-004", "dcurie"), "105": ("S-005", "enoether")}
    grades, unknown = canvas_import(text, course)
    assert grades == {"101": HW3_MAX, "102": 2 * SOFTMAX_POINTS, "103": LAYER_NORM_POINTS, "105": 0} and not unknown
    assert table(reports / "canvas_import.csv")[1] == ["    Points Possible", "", "", "", "", str(HW3_MAX)]
    assert table(reports / "not_imported.csv")[1:] == [
        ["curie_dee_104", "curie_dee", "104", "", "", str(2 * SOFTMAX_POINTS), "not on the roster"]]


@pytest.fixture(scope="module")
def moodle(root):
    (root / "moodle_roster.csv").write_text(  # the id is Moodle's participant id, as the folders' names have it
        "id,name,email,login\n501,Ada Lovelace,ada@uni.example,\n502,Bob Hopper,bob@uni.example,bhopper\n"
        "504,Dee Curie,dee@uni.example,dcurie\n506,Eve Noether,eve@uni.example,enoether\n")
    ada, bob, cy, dee = (f"{name}_{participant}_assignsubmission_file_" for name, participant in
                         (("Ada Lovelace", 501), ("Bob Hopper", 502), ("Cy Turing", 503), ("Dee Curie", 504)))
    return batch(root, "moodle", {
        f"{ada}/sub/hw-3.py": WRONG_SOFTMAX, f"{ada}/sub/hw-3-1.py": SOFTMAX, f"{ada}/layer_norm.py": LAYER_NORM,
        f"{bob}/hw-3.ipynb": notebook(SOFTMAX),
        f"{cy}/hw-3.py": SOFTMAX,  # not on the roster
        f"{dee}/a/hw-3.py": SOFTMAX, f"{dee}/b/hw-3.py": SOFTMAX, f"{dee}/layer_norm.py": LAYER_NORM,
    }, "--assignment", root / "hw3.toml", "--roster", root / "moodle_roster.csv")


def test_moodle_import_maps_every_roster_student_by_each_column_it_holds(moodle):
    _, records, reports = moodle
    dee = records[("Dee Curie_504_assignsubmission_file_", "softmax")]
    assert dee["missing"] == "2 files could be hw-3.py (a/hw-3.py, b/hw-3.py): hand in one"
    text = (reports / "moodle_import.csv").read_text()
    header = table(reports / "moodle_import.csv")[0]
    assert header == ["Full name", "Email address", "HW3"]  # Ada has no username: no Username column
    users = [{"id": 7001, "email": "ada@uni.example", "username": "alovelace", "idnumber": ""},
             {"id": 7002, "email": "bob@uni.example", "username": "bhopper", "idnumber": ""},
             {"id": 7003, "email": "cy@uni.example", "username": "cturing", "idnumber": ""},
             {"id": 7004, "email": "dee@uni.example", "username": "dcurie", "idnumber": ""},
             {"id": 7006, "email": "eve@uni.example", "username": "enoether", "idnumber": ""}]
    assert moodle_import(text, "Email address", "email", users) == {
        7001: HW3_MAX, 7002: 2 * SOFTMAX_POINTS, 7004: LAYER_NORM_POINTS, 7006: 0}
    assert [row[:4] + row[6:] for row in table(reports / "not_imported.csv")[1:]] == [
        ["Cy Turing_503_assignsubmission_file_", "Cy Turing", "503", "", "not on the roster"]]


@pytest.fixture(scope="module")
def gradescope(root):
    """Gradescope's export: a re-upload in one submission, and one student in two submissions."""
    metadata = "".join(f"submission_{n}:\n  :submitters:\n  - :name: {name}\n    :sid: '{sid}'\n"
                       for n, name, sid in ((1, "Ada", 10), (2, "Bob", 20), (3, "Bob", 20)))
    return batch(root, "gradescope", {
        "submission_metadata.yml": metadata, "submission_1/hw-3.py": WRONG_SOFTMAX,
        "submission_1/hw-3-1.py": SOFTMAX, "submission_1/layer_norm.py": LAYER_NORM,
        "submission_2/hw-3.py": SOFTMAX, "submission_3/hw-3.py": SOFTMAX}, "--assignment", root / "hw3.toml")


def test_gradescope_grades_the_last_upload_and_one_record_per_student(gradescope):
    _, records, reports = gradescope
    assert sorted(records) == [("20", "layer_norm"), ("20", "softmax"), ("submission_1", "layer_norm"),
                               ("submission_1", "softmax")]
    assert records[("submission_1", "softmax")]["reupload"] == {"graded": "hw-3-1.py", "superseded": ["hw-3.py"]}
    assert records[("20", "softmax")]["missing"] == ("2 hand-ins for one student (submission_2, submission_3); "
                                                     "keep one and grade again")
    grades, unknown = canvas_import((reports / "canvas_import.csv").read_text(), {"10": ("", ""), "20": ("", "")})
    assert grades == {"10": HW3_MAX, "20": 0} and not unknown


@pytest.fixture(scope="module")
def folders(root):
    """A folder per student: a notebook, re-uploads, late work and an extension."""
    (root / "lab.toml").write_text('title = "Lab"\ndue = 2026-11-20T23:59:00+00:00\n\n[late]\npenalty_per_day = 0.5\n'
                                   '\n[late.extensions]\n"bob" = 2026-11-22T23:59:00+00:00\n\n'
                                   '[[exercise]]\nid = "softmax"\nfile = "hw-3.py"\n')
    (root / "roster.csv").write_text("id,name,email\nada,Ada,ada@uni.example\nbob,Bob,bob@uni.example\n"
                                     "cy,Cy,cy@uni.example\ndan,Dan,dan@uni.example\n")
    (root / "times.csv").write_text("id,submitted_at\nbob,2026-11-21T10:00:00+00:00\ncy,2026-11-21T10:00:00+00:00\n")
    return batch(root, "folders", {
        "ada/hw-3.ipynb": notebook(SOFTMAX), "bob/hw-3.py": SOFTMAX,
        "cy/hw-3.py": WRONG_SOFTMAX, "cy/hw-3-1.py": SOFTMAX,
    }, "--assignment", root / "lab.toml", "--roster", root / "roster.csv", "--times", root / "times.csv")


def test_student_folders_grade_the_last_upload_with_the_late_rules(folders):
    _, records, reports = folders
    assert records[("cy", "softmax")]["reupload"] == {"graded": "hw-3-1.py", "superseded": ["hw-3.py"]}
    gradebook = {row[1]: row[4] for row in table(reports / "gradebook.csv")[1:]}
    # bob: a day late, on time by his extension; cy: a day late, half of 7
    assert gradebook == {"ada": "7", "bob": "7", "cy": "3.5", "dan": "0"}
    grades, unknown = canvas_import((reports / "canvas_import.csv").read_text(),
                                    {"ada": ("", ""), "bob": ("", ""), "cy": ("", ""), "dan": ("", "")})
    assert grades == {"ada": 7, "bob": 7, "cy": 3.5, "dan": 0} and not unknown


@pytest.fixture(scope="module")
def plain(root, folders):
    """One exercise, a file or a folder per student: two hand-ins of one student, a notebook (its id, found
    by the roster, the times and the overrides), re-uploads, a student off the roster."""
    (root / "overrides.csv").write_text("student,exercise,test,points,reason\nbob,softmax,,5,checked by hand\n")
    return batch(root, "plain", {
        "ada.py": SOFTMAX, "ada/hw-3.py": SOFTMAX,  # two hand-ins of student ada
        "bob.ipynb": notebook(SOFTMAX),
        "cy/hw-3.py": WRONG_SOFTMAX, "cy/hw-3-1.py": SOFTMAX,
        "zed.py": SOFTMAX,  # not on the roster
    }, "--entry-file", "hw-3.py", "--roster", root / "roster.csv", "--times", root / "times.csv",
        "--overrides", root / "overrides.csv", exercise=["softmax"])


def test_plain_class_has_one_record_per_student_and_a_notebook_s_id_has_no_suffix(plain):
    process, records, reports = plain
    assert sorted(records) == [(name, "softmax") for name in ("Dan (dan)", "ada", "bob.ipynb", "cy", "zed.py")]
    ada = records[("ada", "softmax")]
    assert ada["missing"] == "2 hand-ins for one student (ada, ada.py); keep one and grade again"
    assert ada["score"] == 0 and ada["student"]["id"] == "ada" and ada["student"]["in_roster"]
    bob = records[("bob.ipynb", "softmax")]
    assert bob["student"]["id"] == "bob" and bob["student"]["in_roster"]
    assert bob["submitted_at"] == "2026-11-21T10:00:00+00:00"
    assert records[("cy", "softmax")]["reupload"] == {"graded": "hw-3-1.py", "superseded": ["hw-3.py"]}
    gradebook = {row[1]: row[4] for row in table(reports / "gradebook.csv")[1:]}
    assert gradebook == {"ada": "0", "bob": "5", "cy": "7", "dan": "0", "zed": str(SOFTMAX_POINTS)}


def test_plain_class_import_files_hold_the_roster_and_nothing_else(plain):
    _, _, reports = plain
    grades, unknown = canvas_import((reports / "canvas_import.csv").read_text(),
                                    {"ada": ("", ""), "bob": ("", ""), "cy": ("", ""), "dan": ("", "")})
    assert grades == {"ada": 0, "bob": 5, "cy": 7, "dan": 0} and not unknown
    users = [{"id": 1, "email": "ada@uni.example"}, {"id": 2, "email": "bob@uni.example"},
             {"id": 3, "email": "cy@uni.example"}, {"id": 4, "email": "dan@uni.example"}]
    assert moodle_import((reports / "moodle_import.csv").read_text(), "Email address", "email", users) == {
        1: 0, 2: 5, 3: 7, 4: 0}
    assert [row[1:3] for row in table(reports / "not_imported.csv")[1:]] == [["zed", "zed"]]

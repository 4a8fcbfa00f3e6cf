"""The due date and late policy of an assignment and an overrides file change the points the reports show, each
change shown as such (gradebook, feedback, report.html, Gradescope); bad policies and overrides are one line naming
the file and the line; a record edited by hand is refused by its checksum.  The records are written here as a batch
writes them, with the student and submission time fields the LMS layouts fill in."""

import csv
import json

import pytest

from grader.cli import main
from grader.instructor.records import results_checksum

TESTS = {"softmax": [("Shape", 2), ("Values", 1), ("Axis", 1)], "sinusoidal_pe": [("Shape", 1), ("Values", 1)]}
DUE = "due = 2026-11-20T23:59:00+01:00\n"
POLICY = ("[late]\ngrace_minutes = 15\npenalty_per_day = 0.1\nmax_penalty = 0.3\n"
          '[late.extensions]\n"10002" = 2026-11-23T23:59:00+01:00\n')
EXERCISES = '[[exercise]]\nid = "softmax"\nweight = 2\n\n[[exercise]]\nid = "sinusoidal_pe"\n\n'
# student id -> (name, submitted_at, late_marker, softmax tests passed)
CLASS = {
    "10001": ("Ada", "2026-11-20T23:50:00+01:00", False, {"Shape", "Values", "Axis"}),   # on time
    "10002": ("Ben", "2026-11-22T10:00:00+01:00", False, {"Shape", "Values", "Axis"}),   # late, but extended
    "10003": ("Cy", "2026-11-22T01:00:00+01:00", False, {"Shape", "Axis"}),              # 2 days late
    "10004": ("Dee", None, True, {"Shape", "Values", "Axis"}),                          # marked late, no time
    "10005": ("Eve", "2026-12-30T12:00:00+00:00", False, {"Shape", "Values", "Axis"}),   # late past the cap
    "10006": ("Fay", "2026-11-21T00:10:00+01:00", False, {"Shape", "Values", "Axis"}),   # within the grace period
}


def record(student_id, exercise, passed, **fields):
    name, submitted_at, late_marker, _ = CLASS[student_id]
    tests = [{"name": test, "status": "passed" if test in passed else "failed",
              "message": "" if test in passed else "wrong", "duration_ms": 1.0, "stdout": "",
              "score": worth if test in passed else 0, "max_score": worth} for test, worth in TESTS[exercise]]
    graded = {"submission": f"{name}_{student_id}", "exercise": exercise, "submission_sha256": "1" * 64,
              "tests_sha256": "2" * 64, "graded_at": "2026-11-25T10:00:00+00:00", "grader_version": "1.1.0",
              "passed": len(passed) == len(tests), "error": None, "stdout": "", "tests": tests,
              "score": sum(t["score"] for t in tests), "max_score": sum(t["max_score"] for t in tests)}
    return {**graded, "results_sha256": results_checksum(graded),
            "student": {"id": student_id, "name": name, "email": None, "login": None},
            "submitted_at": submitted_at, "late_marker": late_marker, **fields}


def write_results(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("late")
    (root / "week3.toml").write_text('title = "Week 3"\n' + DUE + EXERCISES + POLICY)
    records = [record(i, "softmax", CLASS[i][3]) for i in CLASS]
    records += [record(i, "sinusoidal_pe", {"Shape", "Values"}) for i in CLASS]
    write_results(root / "results.jsonl", records)
    (root / "overrides.csv").write_text(
        "student,exercise,test,points,reason\n"
        "10003,softmax,Values,1,the hidden test was too strict\n"
        "10001,sinusoidal_pe,,1,\"copied code, half the points\"\n")
    return root


def report(*args, capsys):
    code = main(["report", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def reports(course):
    assert main(["report", str(course / "results.jsonl"), "--assignment", str(course / "week3.toml"),
                 "--overrides", str(course / "overrides.csv"), "--reports", str(course / "reports")]) == 0
    return course / "reports"


def gradebook(reports):
    """The gradebook's rows by "name_id" (the students' submission names here)."""
    return {f"{row['student']}_{row['id']}": row for row in csv.DictReader((reports / "gradebook.csv").open())}


def test_late_penalties_and_overrides_change_the_totals_and_say_so(reports):
    rows = gradebook(reports)
    assert list(next(iter(rows.values())))[-3:] == ["late penalty", "overrides", "feedback"]
    # total = 2 x softmax (of 4) + sinusoidal_pe (of 2); 10 points in all
    expected = {  # student: (total, late penalty, overrides)
        "Ada_10001": (9, 0, -1),           # on time; sinusoidal_pe overridden 2 -> 1
        "Ben_10002": (10, 0, 0),           # extended to the 23rd
        "Cy_10003": (8, 2, 2),             # softmax 3 -> 4 by override, then 2 days late: -20% of each exercise
        "Dee_10004": (9, 1, 0),            # marked late, no time: one day, -10%
        "Eve_10005": (7, 3, 0),            # 40 days late: capped at 30%
        "Fay_10006": (10, 0, 0),           # within the 15 minutes' grace
    }
    for student, (total, late, overrides) in expected.items():
        row = rows[student]
        assert (float(row["total"]), float(row["late penalty"]), float(row["overrides"])) == \
            pytest.approx((total, late, overrides)), student
    assert "late: submitted 2026-11-22T01:00:00+01:00, 2 day(s) after the due date 2026-11-20T23:59:00+01:00; " \
           "20% of the points taken (-0.8 points)" in rows["Cy_10003"]["feedback"]
    assert "override of test 'Values': 0 -> 1 points (the hidden test was too strict)" in rows["Cy_10003"]["feedback"]
    assert "marked late by the LMS, time unknown: one day's penalty" in rows["Dee_10004"]["feedback"]
    assert "[" not in rows["Ben_10002"]["feedback"] and "[" not in rows["Fay_10006"]["feedback"]


def test_feedback_report_and_gradescope_show_each_change(reports):
    cy = next((reports / "feedback").glob("Cy_10003-*.md")).read_text()
    assert "- **Override of test 'Values': 0 -\\> 1 points (the hidden test was too strict)**" in cy
    assert "- **Late: submitted 2026-11-22T01:00:00+01:00, 2 day(s) after the due date" in cy
    assert "Score: 3.2 / 4 (weight 2)" in cy
    assert "- ✗ **Values**: failed (1/1, points changed by your instructor)" in cy
    page = (reports / "report.html").read_text()
    late = page.split("<h2>Late work</h2>")[1].split("<h2>")[0]
    # One row per student late (Ben's extension and Fay's grace: on time), each exercise's weighted points:
    # Cy 2 days: softmax 4 (overridden) x 2 x 20% = 1.6, sinusoidal_pe 2 x 20% = 0.4
    assert "Due 2026-11-20T23:59:00+01:00; 3 student(s) late" in late and late.count("<tr>") == 4
    assert ('<td class="name">Cy</td><td>late: submitted 2026-11-22T01:00:00+01:00, 2 day(s) after the due date '
            '2026-11-20T23:59:00+01:00; 20% of the points taken</td><td class="num">-2</td>'
            "<td>softmax -1.6, sinusoidal_pe -0.4</td>") in late
    assert "<td>Dee</td>" not in late and '<td class="name">Dee</td><td>late: marked late by the LMS' in late
    overrides = page.split("<h2>Overrides</h2>")[1]
    assert "2 change(s) to the graded points" in overrides
    assert "<td>Ada</td><td>sinusoidal_pe</td><td class=\"num\">-1</td><td>override of the exercise: 2 -&gt; 1 " \
           "points (copied code, half the points)</td>" in overrides
    assert "<td>Cy</td><td>softmax</td>" in overrides  # the student's name, as in the tables above
    students = page.split("<h2>Students by score")[1].split("<h2>")[0]
    assert '6.4/8 <span class="muted">(late, override)</span>' in students  # Cy's softmax, weighted
    results = json.loads(next((reports / "gradescope").glob("Cy_10003-*.json")).read_text())
    assert results["score"] == 8
    assert "softmax: 3.2/4 [override of test 'Values'" in results["output"]
    assert next(t for t in results["tests"] if t["name"] == "softmax: Values")["score"] == 2  # 1 point, weight 2


def test_without_a_due_date_or_overrides_the_reports_are_as_graded(course, tmp_path, capsys):
    (tmp_path / "plain.toml").write_text(EXERCISES)
    code, _, err = report(course / "results.jsonl", "--assignment", tmp_path / "plain.toml", "--reports",
                          tmp_path / "r", capsys=capsys)
    assert code == 0, err
    rows = gradebook(tmp_path / "r")
    assert "late penalty" not in next(iter(rows.values()))
    assert float(rows["Eve_10005"]["total"]) == 10 and float(rows["Cy_10003"]["total"]) == 8
    page = (tmp_path / "r" / "report.html").read_text()
    assert "<h2>Late work</h2>" not in page and "<h2>Overrides</h2>" not in page


def test_a_due_date_without_a_policy_shows_late_work_without_a_penalty(course, tmp_path, capsys):
    (tmp_path / "due.toml").write_text(DUE + EXERCISES)
    code, _, err = report(course / "results.jsonl", "--assignment", tmp_path / "due.toml", "--reports",
                          tmp_path / "r", capsys=capsys)
    assert code == 0, err
    eve = gradebook(tmp_path / "r")["Eve_10005"]
    assert float(eve["total"]) == 10 and float(eve["late penalty"]) == 0
    assert "40 day(s) after the due date" in eve["feedback"] and "0% of the points taken" in eve["feedback"]


@pytest.mark.parametrize("policy, expected", [
    ("due = 2026-11-20T23:59:00\n", "week.toml:1: due should be a date and time with its time zone, like "
                                    "2026-11-20T23:59:00+01:00, not 2026-11-20T23:59:00"),
    ("due = 2026-11-20\n", "week.toml:1: due should be a date and time with its time zone"),
    ("[late]\npenalty_per_day = 0.1\n", "week.toml:1: a late policy needs the due date"),
    (DUE + "[late]\npenalty_per_day = 1.5\n", "week.toml:3: penalty_per_day should be a number from 0 to 1, not 1.5"),
    (DUE + "[late]\ngrace_minutes = 5\n", "week.toml:2: [late] needs penalty_per_day"),
    (DUE + "[late]\npenalty_per_day = 0.1\ncolour = 1\n", "week.toml:4: unknown key 'colour' in [late]"),
    (DUE + "[late]\npenalty_per_day = 0.1\nmax_penalty = true\n", "week.toml:4: max_penalty should be a number"),
    (DUE + '[late]\npenalty_per_day = 0.1\n[late.extensions]\n"10001" = 3\n',
     "week.toml:5: extension of '10001' should be a date and time with its time zone, like 2026-11-20T23:59:00+01:00, "
     "not 3"),
])
def test_a_bad_due_date_or_late_policy_is_one_line_naming_the_line(tmp_path, capsys, policy, expected):
    (tmp_path / "week.toml").write_text(policy + "\n" + EXERCISES)
    code = main(["batch", str(tmp_path), "--assignment", str(tmp_path / "week.toml"), "--out",
                 str(tmp_path / "r.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and expected in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("overrides, expected", [
    ("student,exercise,points,reason\n10009,softmax,1,x\n", "overrides.csv:2: no student '10009' in the results"),
    ("student,exercise,points,reason\n10001,gelu,1,x\n", "overrides.csv:2: no exercise 'gelu' in the results"),
    ("student,exercise,test,points,reason\n\n10001,softmax,Shape?,1,x\n",
     "overrides.csv:3: 'softmax' has no test 'Shape?' (its tests: 'Shape', 'Values', 'Axis')"),
    ("student,exercise,test,points,reason\n10001,softmax,Shape,3,x\n",
     "overrides.csv:2: 3 points is more than the 2 there are"),
    ("student,exercise,points,reason\n10001,softmax,5,x\n", "overrides.csv:2: 5 points is more than the 4 there are"),
    ("student,exercise,points,reason\n10001,softmax,nan,x\n", "overrides.csv:2: points should be a number of points"),
    ("student,exercise,points,reason\n10001,softmax,-1,x\n", "overrides.csv:2: points should be a number of points"),
    ("student,exercise,points,reason\n10001,softmax,1, \n", "overrides.csv:2: reason is empty"),
    ("student,exercise,points,reason\n10001,softmax,1\n", "overrides.csv:2: 3 cells where the first line names 4"),
    ("student,exercise,points,reason\n10001,softmax,1,x\n10001,softmax,2,y\n",
     "overrides.csv:3: overrides the same points as line 2"),
    ("student,exercise,test,points,reason\n10001,softmax,Shape,1,x\n10001,softmax,,2,y\n",
     "overrides.csv:3: overrides the whole exercise and one of its tests (line 2) for the same student; keep one"),
    ("student,exercise,score,reason\n", "overrides.csv:1: the columns should be student,exercise,test,points,reason"),
    ("Student,exercise,points,reason,student\n",
     "overrides.csv:1: the columns should be student,exercise,test,points,reason (test may be left out), "
     "not Student,exercise,points,reason,student"),
    ("student,exercise,points,reason\n10001,softmax,1,x,more\n",
     "overrides.csv:2: 5 cells where the first line names 4 columns"),
    ("", "overrides.csv: empty"),
])
def test_a_bad_overrides_file_is_one_line_naming_the_line(course, tmp_path, capsys, overrides, expected):
    (tmp_path / "overrides.csv").write_text(overrides)
    code, _, err = report(course / "results.jsonl", "--assignment", course / "week3.toml", "--overrides",
                          tmp_path / "overrides.csv", "--reports", tmp_path / "r", capsys=capsys)
    assert code == 2 and expected in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "r").exists()


def test_a_record_edited_by_hand_is_refused_but_its_identity_may_be_filled_in(course, tmp_path, capsys):
    records = [json.loads(line) for line in (course / "results.jsonl").read_text().splitlines()]
    cy = next(r for r in records if r["submission"] == "Cy_10003" and r["exercise"] == "softmax")
    cy["student"]["email"] = "cy@example.org"  # a roster joined later: not part of the checksum
    cy["submitted_at"] = "2026-11-21T09:00:00+01:00"
    code, _, err = report(write_results(tmp_path / "filled.jsonl", records), "--reports", tmp_path / "ok",
                          capsys=capsys)
    assert code == 0, err
    values = cy["tests"][1]
    values.update(status="passed", score=1, message="")  # all consistent, but not what was graded
    cy.update(score=4, passed=True)
    edited = write_results(tmp_path / "edited.jsonl", records)
    code, _, err = report(edited, "--reports", tmp_path / "r", capsys=capsys)
    line = records.index(cy) + 1
    assert code == 2 and err.startswith(f"error: {edited}:{line}: not a results record (results_sha256: does not "
                                        "match the record: it was edited after grading (to change points, use an "
                                        "overrides file, --overrides")
    assert not (tmp_path / "r").exists()


def test_report_takes_corrected_times_without_regrading(course, tmp_path, capsys):
    """Cy's time corrected to on time, Ada's to 3 days late: the reports change, the results file does not; an id
    no record has is a warning, as for batch."""
    before = (course / "results.jsonl").read_bytes()
    (tmp_path / "times.csv").write_text("id,submitted_at\n10003,2026-11-20T20:00:00+01:00\n"
                                        "10001,2026-11-23T12:00:00+01:00\n10099,2026-11-20T20:00:00+01:00\n")
    code, out, err = report(course / "results.jsonl", "--assignment", course / "week3.toml", "--times",
                            tmp_path / "times.csv", "--reports", tmp_path / "r", capsys=capsys)
    assert code == 0 and err == "warning: --times: no student has the id 10099\n", err
    rows = gradebook(tmp_path / "r")
    assert (float(rows["Cy_10003"]["total"]), float(rows["Cy_10003"]["late penalty"])) == (8, 0)  # 3 x 2 + 2
    # Ada 10 points, 2 days 12 hours late: 3 days, 30% (the cap) of each exercise's points
    assert (float(rows["Ada_10001"]["total"]), float(rows["Ada_10001"]["late penalty"])) == (7, 3)
    assert (course / "results.jsonl").read_bytes() == before


@pytest.mark.parametrize("times, assignment, expected", [
    ("id,submitted_at\n10003,2026-11-20T20:00:00\n", "week3.toml",
     "times.csv:2: '2026-11-20T20:00:00' has no offset"),
    ("id,submitted_at\n10003,tomorrow\n", "week3.toml", "times.csv:2: 'tomorrow' is not an ISO 8601 time"),
    ("id,submitted_at\n10003,2026-11-20T20:00:00Z\n10003,2026-11-20T20:00:00Z\n", "week3.toml",
     "times.csv:3: id '10003' is already on line 2"),
    ("id,submitted_at\n10003,2026-11-20T20:00:00Z\n", None,
     "times.csv: submission times decide late penalties, and no due date is given"),
])
def test_bad_times_for_report_are_one_line_and_nothing_is_written(course, tmp_path, capsys, times, assignment,
                                                                   expected):
    (tmp_path / "times.csv").write_text(times)
    given = ["--assignment", course / assignment] if assignment else []
    code, _, err = report(course / "results.jsonl", *given, "--times", tmp_path / "times.csv", "--reports",
                          tmp_path / "r", capsys=capsys)
    assert code == 2 and expected in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "r").exists()


def test_overrides_need_the_reports(tmp_path, capsys):
    (tmp_path / "o.csv").write_text("student,exercise,points,reason\n")
    code = main(["batch", str(tmp_path), "--exercise", "softmax", "--overrides", str(tmp_path / "o.csv")])
    assert code == 2 and "--overrides changes the reports: give --reports DIR too" in capsys.readouterr().err

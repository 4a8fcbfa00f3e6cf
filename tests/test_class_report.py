"""report.html from hand-written records: failures grouped by diagnosis whatever their numbers and shown in
full, exercises charted with text beside each bar, and the pairs of a similarity file in a section of their
own, refused when they are about another class."""

import json

import pytest

from grader.cli import main
from grader.instructor.outputs import Plan, class_results, html_report
from grader.instructor.outputs.diagnoses import diagnoses, normalised
from grader.instructor.records import results_checksum

LONG = ("looks like the normalisation ran over the whole array instead of each slice along `axis`: "
        + "the sums along axis -1 are not 1. " * 12 + "END OF DIAGNOSIS")


@pytest.mark.parametrize("first, second, expected", [
    ("output[0, 1]: expected 0.5, got 0.7 (3 of 12 entries differ)",
     "output[2, 0]: expected 0.2, got -9e-05 (1 of 12 entries differ)",
     "output[‹index›]: expected ‹n›, got ‹n› (‹n› of ‹n› entries differ)"),
    ("result should have shape (4, 8), got (8, 4)", "result should have shape (3,), got ()",
     "result should have shape ‹shape›, got ‹shape›"),
    ("got [0.1 0.2 0.7]", "got [0.25, 0.25]", "got [‹numbers›]"),
    ("float32 is not float64 (line 3)", "float32 is not float64 (line 12)", "float32 is not float64 (line ‹n›)"),
    ("f(x) for x of shape (5, 5) (float32): entry [0] is nan", "f(x) for x of shape (4,) (int64): entry [1] is nan",
     "f(x) for x of shape ‹shape› (‹dtype›): entry [‹index›] is nan"),
])
def test_messages_that_differ_in_their_numbers_are_one_diagnosis(first, second, expected):
    assert normalised(first) == normalised(second) == expected


def record(student, exercise, outcomes, error=None, missing=None):
    """A results record; `outcomes`: [(test name, message or "" for passed)], each test worth 1."""
    tests = [{"name": name, "status": "failed" if message else "passed", "message": message, "duration_ms": 1.0,
              "stdout": "", "score": 0 if message else 1, "max_score": 1} for name, message in outcomes]
    if error or missing:
        for test in tests:
            test.update(status="error", message="Not run: your code could not be loaded.", score=0)
    graded = {"submission": student, "exercise": exercise, "submission_sha256": None if missing else "a" * 64,
              "tests_sha256": "b" * 64, "graded_at": "2026-11-26T10:00:00+00:00", "grader_version": "1",
              "passed": not any(m for _, m in outcomes) and not (error or missing), "error": error or missing,
              "stdout": "", "score": sum(t["score"] for t in tests), "max_score": len(tests), "tests": tests,
              **({"missing": missing} if missing else {})}
    return {**graded, "results_sha256": results_checksum(graded)}


TESTS = ("Shape", "Values")
RECORDS = [
    record("ada", "softmax", [("Shape", ""), ("Values", "")]),
    record("bob", "softmax", [("Shape", ""), ("Values", "out[0, 1]: expected 0.5, got 0.7")]),
    record("cy", "softmax", [("Shape", ""), ("Values", "out[3, 2]: expected 0.2, got 0.9")]),
    record("dee", "softmax", [("Shape", LONG), ("Values", LONG)]),
    record("eve", "softmax", [("Shape", ""), ("Values", "")], error="SyntaxError: invalid syntax (line 3)"),
    record("fay", "softmax", [("Shape", ""), ("Values", "")], error="SyntaxError: invalid syntax (line 17)"),
    record("gus", "softmax", [("Shape", ""), ("Values", "")], missing="softmax.py: no such file"),
    *(record(name, "layer_norm", [("Normalises", "")]) for name in ("ada", "bob", "cy", "dee", "eve", "fay", "gus")),
]
PLAN = Plan("Week 3", {"softmax": 2, "layer_norm": 1})


def test_failures_are_grouped_by_diagnosis_and_shown_in_full():
    students = class_results(RECORDS, PLAN)
    groups = {group.text: group for group in diagnoses("softmax", students)}
    assert set(groups) == {"out[‹index›]: expected ‹n›, got ‹n›", LONG.replace("-1", "‹n›").replace(" 1.", " ‹n›."),
                           "Could not be loaded: SyntaxError: invalid syntax (line ‹n›)"}
    values = groups["out[‹index›]: expected ‹n›, got ‹n›"]
    assert (values.students, values.tests, values.example) == (["bob", "cy"], ["Values"],
                                                                "out[0, 1]: expected 0.5, got 0.7")
    assert groups[LONG.replace("-1", "‹n›").replace(" 1.", " ‹n›.")].tests == ["Shape", "Values"]
    assert groups["Could not be loaded: SyntaxError: invalid syntax (line ‹n›)"].students == ["eve", "fay"]
    page = html_report.render(students, PLAN)
    assert "END OF DIAGNOSIS" in page and "…" not in page  # never cut
    assert "softmax: failures by diagnosis" in page and "layer_norm: failures by diagnosis" not in page
    assert "(loading the code)" in page and "gus" not in page.split("failures by diagnosis")[1].split("</table>")[0]


def test_the_exercises_chart_writes_each_bar_as_text():
    page = html_report.render(class_results(RECORDS, PLAN), PLAN)
    chart = page.split("<h2>Exercises</h2>")[1].split("</table>")[0]
    # softmax: ada 2/2, bob and cy 1/2, dee, eve, fay and gus 0/2: mean 2/7 of the points; 1 passed every test
    assert ('<td class="num">×2</td>' in chart and '<td class="num">29%</td>' in chart
            and '<td class="num">1/7</td>' in chart and '<td class="num">7/7</td>' in chart)
    assert chart.count('aria-hidden="true"') == 4  # the bars; the numbers beside them are read


@pytest.fixture
def results(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    return path


def similarity(tmp_path, first="bob", exercise="softmax"):
    path = tmp_path / "similarity.json"
    path.write_text(json.dumps({"threshold": 0.5, "exercises": {exercise: {"compared": 6, "groups": [], "pairs": [
        {"first": first, "second": "cy", "similarity": [0.92, 0.875], "lines": [[[3, 9]], [[4, 10], [12, 12]]]}]}}}))
    return path


def test_report_shows_the_similar_pairs_it_is_given(tmp_path, results, capsys):
    assert main(["report", str(results), "--reports", str(tmp_path / "out"),
                 "--similarity", str(similarity(tmp_path))]) == 0
    section = (tmp_path / "out" / "report.html").read_text().split("<h2>Similar submissions</h2>")[1]
    assert "softmax: 0 group(s) of the same code and 1 pair(s) of 6 submissions" in section and "at least 50%" in section
    assert ('<td>bob</td><td>cy</td><td class="num">92%</td><td class="num">88%</td>'
            "<td>bob: 3–9; cy: 4–10, 12</td>") in section
    assert main(["report", str(results), "--reports", str(tmp_path / "plain")]) == 0
    assert "Similar submissions" not in (tmp_path / "plain" / "report.html").read_text()


def test_students_with_the_same_code_are_one_group_shown_once(tmp_path, results, capsys):
    """bob, cy and dee have the same code: one row; ada's pair with the group (bob standing for it): one row."""
    path = tmp_path / "similarity.json"
    path.write_text(json.dumps({"threshold": 0.5, "exercises": {"softmax": {"compared": 6, "groups": [
        ["bob", "cy", "dee"]], "pairs": [{"first": "ada", "second": "bob", "similarity": [0.8, 0.7],
                                          "lines": [[[1, 5]], [[1, 5]]]}]}}}))
    assert main(["report", str(results), "--reports", str(tmp_path / "out"), "--similarity", str(path)]) == 0
    section = (tmp_path / "out" / "report.html").read_text().split("<h2>Similar submissions</h2>")[1]
    assert "softmax: 1 group(s) of the same code and 1 pair(s) of 6 submissions" in section
    rows = section.split("<tr>")[2:]
    assert len(rows) == 2
    assert rows[0].startswith('<td colspan="2">bob, cy, dee</td><td class="num">100%</td><td class="num">100%</td>'
                              "<td>3 students: the same code but for names, comments and layout</td>")
    assert rows[1].startswith('<td>ada</td><td>bob <span class="muted">(and 2 more with the same code)</span></td>'
                              '<td class="num">80%</td><td class="num">70%</td>')


@pytest.mark.parametrize("first, exercise, expected", [
    ("zed", "softmax", "names 1 submission(s) not in the results, e.g. 'zed'"),
    ("bob", "attention", "about 'attention', which the results do not hold"),
])
def test_a_similarity_file_of_another_class_is_refused(tmp_path, results, capsys, first, exercise, expected):
    assert main(["report", str(results), "--reports", str(tmp_path / "out"),
                 "--similarity", str(similarity(tmp_path, first, exercise))]) == 2
    assert expected in capsys.readouterr().err
    assert not (tmp_path / "out").exists()

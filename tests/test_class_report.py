"""report.html from hand-written records: pass rates over the gradable hand-ins with those not handed in
and those not gradable named apart, failures grouped by mistake (each student once per mistake whatever the
tests, a named mistake word for word) and shown in full, late work a row per student, exercises charted with
text beside each bar, and the groups and pairs of a similarity file in a section of their own, refused when
they are about another class.  The values checked were computed by hand."""

import datetime
import json
from html.parser import HTMLParser

import pytest

from grader.cli import main
from grader.instructor.outputs import Plan, class_results, html_report
from grader.instructor.late import LatePolicy
from grader.instructor.outputs.diagnoses import diagnoses, hint_of, normalised
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
    assert "softmax: failures by mistake" in page and "layer_norm: failures by mistake" not in page
    assert "(loading the code)" in page and "gus" not in page.split("failures by mistake")[1].split("</table>")[0]


def test_the_exercises_chart_writes_each_bar_as_text():
    page = html_report.render(class_results(RECORDS, PLAN), PLAN)
    chart = page.split("<h2>Exercises</h2>")[1].split("</table>")[0]
    # softmax: ada 2/2, bob and cy 1/2, dee, eve and fay 0/2 (gus handed in nothing): mean 4/12 of the points
    assert ('<td class="num">×2</td>' in chart and '<td class="num">33%</td>' in chart
            and '<td class="num">1/6</td>' in chart and '<td class="num">7/7</td>' in chart)
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


class Page(HTMLParser):
    """report.html as text: each h2/h3 heading with the paragraphs and table rows under it, a row a list of its
    cells' texts (the pieces of a cell, as in a list, joined by a space)."""

    def __init__(self, html):
        super().__init__()
        self.sections, self.heading, self.cell, self.text = {}, None, None, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag in ("h2", "h3", "p"):
            self.text = []
        elif tag == "tr":
            self.sections[self.heading]["rows"].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("h2", "h3"):
            self.heading = "".join(self.text)
            self.sections[self.heading] = {"paragraphs": [], "rows": []}
            self.text = None
        elif tag == "p" and self.text is not None:
            self.sections.setdefault(self.heading, {"paragraphs": [], "rows": []})["paragraphs"].append("".join(self.text))
            self.text = None
        elif tag in ("td", "th"):
            self.sections[self.heading]["rows"][-1].append(" ".join(" ".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        for collected in (self.text, self.cell):
            if collected is not None:
                collected.append(data)

    def rows(self, heading):
        return self.sections[heading]["rows"][1:]  # under the header row


WRONG_AXIS = " (looks like the softmax ran over the wrong axis (axis 0))"
CLASS = [  # softmax: Shape, Values, Axis, weight 2; layer_norm: Normalises, weight 1
    record("ada", "softmax", [("Shape", ""), ("Values", ""), ("Axis", "")]),
    record("bob", "softmax", [("Shape", "result should have shape (4, 8), got (8, 4)" + WRONG_AXIS),
                              ("Values", "out[0, 1]: expected 0.5, got 0.7" + WRONG_AXIS), ("Axis", "")]),
    record("cy", "softmax", [("Shape", ""), ("Values", "out[2, 2]: expected 0.1, got 0.3" + WRONG_AXIS), ("Axis", "")]),
    record("dee", "softmax", [("Shape", ""), ("Values", "ids[3]: expected 300, got 299 (looks like the new ids "
                                                        "start at 255: merge r becomes id 256 + r)"), ("Axis", "")]),
    record("eve", "softmax", [("Shape", ""), ("Values", "ids[3]: expected 300, got 301 (looks like the new ids "
                                                        "start at 257: merge r becomes id 256 + r)"), ("Axis", "")]),
    record("fay", "softmax", [("Shape", ""), ("Values", ""), ("Axis", "")], error="SyntaxError: invalid syntax (line 3)"),
    record("gus", "softmax", [("Shape", ""), ("Values", ""), ("Axis", "")], missing="no submission"),
    record("hal", "softmax", [("Shape", ""), ("Values", ""), ("Axis", "")], missing="softmax.py: not a UTF-8 text file"),
    record("ivy", "softmax", [("Shape", ""), ("Values", ""), ("Axis", "")], missing="softmax.py: no such file"),
    *(record(name, "layer_norm", [("Normalises", "")]) for name in ("ada", "bob", "cy", "dee", "eve", "fay", "hal", "ivy")),
    record("gus", "layer_norm", [("Normalises", "")], missing="no submission"),
]
DUE = datetime.datetime(2026, 11, 20, 23, 59, tzinfo=datetime.timezone.utc)


def late(records):
    """bob handed both in 2 days late; cy's layer_norm was marked late by the LMS (one day)."""
    for r in records:
        if r["submission"] == "bob":
            r = {**r, "submitted_at": "2026-11-22T10:00:00+00:00"}
        elif (r["submission"], r["exercise"]) == ("cy", "layer_norm"):
            r = {**r, "late_marker": True}
        yield r


def test_the_report_counts_over_the_gradable_hand_ins_and_names_the_others():
    plan = Plan("Week 3", {"softmax": 2, "layer_norm": 1}, late=LatePolicy(DUE, per_day=0.1))
    page = Page(html_report.render(class_results(list(late(CLASS)), plan), plan))
    assert page.sections[None]["paragraphs"][1] == "Handed in nothing (1, 0 points): gus"  # ivy handed in layer_norm
    # softmax: 6 gradable (fay's does not load: 0 points); ada 3, bob 1 - 20% late, cy, dee, eve 2, fay 0 of 3:
    # 9.8/18 = 54%; layer_norm: 8 gradable, bob's 0.8 and cy's 0.9 after the late penalty: 7.7/8 = 96%
    assert page.rows("Exercises") == [["softmax", "×2", "", "54%", "", "1/6", "2", "1"],
                                      ["layer_norm", "×1", "", "96%", "", "8/8", "1", "0"]]
    softmax = page.sections["softmax"]
    assert softmax["paragraphs"] == ["Pass rates over the 6 gradable hand-in(s).",
                                     "Not handed in (2, 0 points): gus, ivy",
                                     "Handed in but not gradable (1, 0 points): hal (softmax.py: not a UTF-8 text file)"]
    assert page.rows("softmax") == [["Shape", "2", "", "67% (4/6)", "bob, fay"],
                                    ["Values", "2", "", "17% (1/6)", "bob, cy, dee, eve, fay"],
                                    ["Axis", "2", "", "83% (5/6)", "fay"]]
    # One row per mistake, each student once: bob's two tests with one mistake are one row; 255 and 257 are two
    mistakes, examples = [], []
    for count, diagnosis, tests, who in page.rows("softmax: failures by mistake"):
        text, _, example = diagnosis.partition("'s message ")  # the mistake, then "bob's message ..."
        mistakes.append([count, text.rsplit(" ", 1)[0], tests, who])
        examples.append(example)
    assert mistakes == [
        ["2", "The test named a mistake: looks like the softmax ran over the wrong axis (axis 0)", "Shape Values",
         "bob, cy"],
        ["1", "The test named a mistake: looks like the new ids start at 255: merge r becomes id 256 + r", "Values",
         "dee"],
        ["1", "The test named a mistake: looks like the new ids start at 257: merge r becomes id 256 + r", "Values",
         "eve"],
        ["1", "Could not be loaded: SyntaxError: invalid syntax (line ‹n›)", "(loading the code)", "fay"]]
    assert examples[0] == "result should have shape (4, 8), got (8, 4)" + WRONG_AXIS  # bob's, in full
    assert page.sections["layer_norm"]["paragraphs"][1] == "Not handed in (1, 0 points): gus"
    # bob: 2 days late, -20%: softmax 1 point x 2 x 0.2 = -0.4, layer_norm 1 x 0.2 = -0.2; cy: layer_norm -0.1
    late_rows = page.rows("Late work")
    assert [(row[0], row[2], row[3]) for row in late_rows] == [("bob", "-0.6", "softmax -0.4, layer_norm -0.2"),
                                                              ("cy", "-0.1", "layer_norm -0.1")]
    assert late_rows[0][1].startswith("late: submitted 2026-11-22T10:00:00+00:00, 2 day(s) after the due date")
    assert late_rows[1][1].startswith("late: marked late by the LMS, time unknown")
    assert "Overrides" not in page.sections


@pytest.mark.parametrize("message, hint", [
    ("out[0]: expected 1, got 2 (looks like axis (0) was used)", "looks like axis (0) was used"),
    ("got 3 (these inputs match more than one classic mistake: a; or b (c))",
     "these inputs match more than one classic mistake: a; or b (c)"),
    ("got 3 (looks like it was cut", "looks like it was cut"),
    ("expected shape (4, 8), got (8, 4)", None),
])
def test_the_mistake_a_message_names_is_found_whole(message, hint):
    assert hint_of(message) == hint

"""An assignment of several exercises over a class folder (one folder per student), and every output made
from its records: gradebook CSV, feedback, Gradescope results.json, JUnit XML, HTML report, summary."""

import csv
import html.parser
import json
import re
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import junitparser
import pytest

from grader.exercise import EXERCISES_DIR

SOFTMAX = EXERCISES_DIR / "softmax"
PE = EXERCISES_DIR / "sinusoidal_pe"
SHAPE_TEST = "Output has the same shape as x"
HOSTILE_MESSAGE = '<script>alert("x")</script>\n=cmd|calc \u2028 & ```'
HOSTILE_SOFTMAX = f"def softmax(x, axis=-1):\n    raise ValueError({HOSTILE_MESSAGE!r})\n"
HOSTILE_NAME = '=cmd "quoted" <script>alert(1)<'


def grader(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, timeout=300,
                          **kwargs)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """An assignment (softmax with points and weight 2, sinusoidal_pe handed in as pe.py) and a class."""
    root = tmp_path_factory.mktemp("course")
    softmax = shutil.copytree(SOFTMAX, root / "exercises" / "softmax")
    with (softmax / "exercise.toml").open("a") as toml:
        toml.write(f'\n[points]\n"{SHAPE_TEST}" = 3\n')
    (root / "assignment.toml").write_text(
        'title = "Week 3"\n\n[[exercise]]\nid = "exercises/softmax"\nweight = 2\n\n'
        '[[exercise]]\nid = "sinusoidal_pe"\nfile = "pe.py"\n')
    students = root / "class"
    for name, files in {
        "alice": {"softmax.py": SOFTMAX / "solution.py", "pe.py": PE / "solution.py"},
        "bob": {"softmax.py": SOFTMAX / "mutants" / "forgot_return.py", "pe.py": PE / "mutants" / "angles_in_degrees.py"},
        "carol": {"softmax.py": SOFTMAX / "solution.py"},   # no pe.py
        HOSTILE_NAME: {"softmax.py": HOSTILE_SOFTMAX, "pe.py": b"\xff\xfe not UTF-8"},
    }.items():
        (students / name).mkdir(parents=True)
        for file_name, content in files.items():
            target = students / name / file_name
            if isinstance(content, Path):
                shutil.copy(content, target)
            elif isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content)
    (students / "stray.py").write_text("x = 1\n")
    return root


def run_assignment(course, out, reports, **kwargs):
    return grader("batch", str(course / "class"), "--assignment", str(course / "assignment.toml"),
                  "--out", str(out), "--reports", str(reports), "--timeout", "5", **kwargs)


@pytest.fixture(scope="module")
def graded(course):
    process = run_assignment(course, course / "results.jsonl", course / "reports")
    assert process.returncode == 0, process.stderr
    records = [json.loads(line) for line in (course / "results.jsonl").read_text().split("\n")[:-1]]
    return process, records, course / "reports"


def by_key(records):
    return {(r["submission"], r["exercise"]): r for r in records}


def test_every_student_gets_a_record_per_exercise_with_points(graded):
    _, records, _ = graded
    records = by_key(records)
    assert sorted(records) == sorted((s, e) for s in ("alice", "bob", "carol", HOSTILE_NAME)
                                     for e in ("softmax", "sinusoidal_pe"))
    alice = records[("alice", "softmax")]
    assert (alice["score"], alice["max_score"]) == (9, 9)  # 6 tests at 1 point, the shape test at 3
    assert [t["max_score"] for t in alice["tests"]] == [3, 1, 1, 1, 1, 1, 1]
    assert records[("alice", "sinusoidal_pe")]["score"] == 6
    missing = records[("carol", "sinusoidal_pe")]
    assert (missing["score"], missing["missing"], missing["submission_sha256"]) == (0, "pe.py: no such file", None)
    assert records[(HOSTILE_NAME, "sinusoidal_pe")]["missing"] == "pe.py: not a UTF-8 text file"
    bob = records[("bob", "softmax")]
    assert bob["score"] == sum(t["max_score"] for t in bob["tests"] if t["status"] == "passed") < 9
    for record in records.values():
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", record["graded_at"])
        assert record["grader_version"]


def test_summary_is_printed_and_written_and_strays_are_listed(graded):
    process, _, reports = graded
    assert "== softmax ==" in process.stdout and "== sinusoidal_pe ==" in process.stdout
    assert "stray.py: not a student's folder" in process.stdout
    summary = (reports / "summary.txt").read_text()
    assert summary.strip() == process.stdout.split("\nResults:")[0].strip()


def test_gradebook_has_numbers_percentages_and_safe_feedback(graded):
    _, records, reports = graded
    rows = list(csv.reader((reports / "gradebook.csv").open(newline="")))
    assert rows[0] == ["student", "id", "email", "login", "total", "max_total", "percentage", "softmax score",
                       "sinusoidal_pe score", "feedback"]
    table = {row[0].removeprefix("'"): row[:1] + row[4:] for row in rows[1:]}  # id, email, login: see below
    assert sorted(table) == sorted(["alice", "bob", "carol", HOSTILE_NAME])
    assert all(row[1] == row[0] and row[2:4] == ["", ""] for row in rows[1:])  # a plain folder's name is the id
    records = by_key(records)
    for name, row in table.items():
        softmax, pe = records[(name, "softmax")]["score"], records[(name, "sinusoidal_pe")]["score"]
        assert float(row[1]) == 2 * softmax + pe and float(row[2]) == 2 * 9 + 6
        assert float(row[3]) == pytest.approx(100 * float(row[1]) / 24, abs=0.01)
        assert (float(row[4]), float(row[5])) == (softmax, pe)
    assert table["alice"][1:4] == ["24", "24", "100.00"]
    assert "sinusoidal_pe: 0/6 (pe.py: no such file)" in table["carol"][6]
    assert "<script>" in table[HOSTILE_NAME][6]  # text in a CSV is data, but it must stay on one line
    text = (reports / "gradebook.csv").read_text()
    assert len(text.splitlines()) == 5 and "\u2028" not in text
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)


def test_feedback_files_give_each_test_its_verdict_and_message(graded):
    _, records, reports = graded
    files = sorted((reports / "feedback").glob("*.md"))
    assert len(files) == 4 and all(re.fullmatch(r"[A-Za-z0-9_.-]+-[0-9a-f]{8}\.md", f.name) for f in files)
    assert sorted(f.with_suffix(".md") for f in (reports / "feedback").glob("*.html")) == files  # and a page each
    bob = next(f for f in files if f.name.startswith("bob-")).read_text()
    for record in (r for r in records if r["submission"] == "bob"):
        for test in record["tests"]:
            assert test["name"].replace("[", "\\[").replace("]", "\\]") in bob
            if test["status"] != "passed":
                assert test["message"].splitlines()[0] in bob
    assert "failed" in bob and "Score: " in bob
    hostile = next(f for f in files if f.name.startswith("cmd_quoted_script_alert_1")).read_text()
    assert "\\<script\\>alert(1)\\<" in hostile.splitlines()[0]  # the name is Markdown text, not HTML
    fence = re.search(r"^ *(`{4,})text$", hostile, re.MULTILINE).group(1)  # longer than the ``` in the message
    assert f"{fence}text" in hostile and "```" in hostile


def test_junit_xml_parses_with_a_suite_per_student_and_exercise(graded):
    _, records, reports = graded
    xml = junitparser.JUnitXml.fromfile(str(reports / "junit.xml"))
    suites = {suite.name: suite for suite in xml}
    assert len(suites) == 8
    records = by_key(records)
    for (student, exercise), record in records.items():
        suite = suites[f"{student} / {exercise}"]
        cases = list(suite)
        assert [case.name for case in cases] == [t["name"] for t in record["tests"]]
        for case, test in zip(cases, record["tests"]):
            assert case.is_passed == (test["status"] == "passed")
            if test["status"] == "failed":
                assert isinstance(case.result[0], junitparser.Failure)
            elif test["status"] != "passed":
                assert isinstance(case.result[0], junitparser.Error)
                assert case.result[0].text == test["message"].replace("\u2028", "\\u2028")
        assert suite.tests == len(cases)
        assert suite.failures == sum(t["status"] == "failed" for t in record["tests"])
    assert xml.tests == sum(len(r["tests"]) for r in records.values())
    hostile = suites[f"{HOSTILE_NAME} / softmax"]
    assert '<script>alert("x")</script>' in list(hostile)[0].result[0].text


def test_gradescope_results_follow_the_schema(graded):
    _, _, reports = graded
    files = sorted((reports / "gradescope").iterdir())
    assert len(files) == 4
    for path in files:
        results = json.loads(path.read_text())
        assert set(results) == {"score", "execution_time", "output", "tests"}
        assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]))
        for test in results["tests"]:
            assert set(test) == {"name", "score", "max_score", "status", "output", "visibility"}
            assert test["status"] in ("passed", "failed") and test["visibility"] == "visible"
            assert 0 <= test["score"] <= test["max_score"]
    alice = json.loads(next(f for f in files if f.name.startswith("alice-")).read_text())
    assert alice["score"] == 24 and sum(t["max_score"] for t in alice["tests"]) == 24
    assert alice["tests"][0] == {"name": f"softmax: {SHAPE_TEST}", "score": 6, "max_score": 6, "status": "passed",
                                 "output": "", "visibility": "visible"}


class _Collect(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_html_report_is_self_contained_and_escapes_everything(graded):
    _, _, reports = graded
    page = (reports / "report.html").read_text()
    parser = _Collect()
    parser.feed(page)
    tags = [tag for tag, _ in parser.tags]
    assert "script" not in tags and "link" not in tags and "img" not in tags
    assert not any(key == "src" or key == "href" and not value.startswith("#") or value and "url(" in value
                   for _, attrs in parser.tags for key, value in attrs.items())
    ids = {attrs["id"] for _, attrs in parser.tags if "id" in attrs}
    assert {attrs["href"][1:] for tag, attrs in parser.tags if tag == "a"} == ids  # each exercise's section
    text = " ".join(parser.text)
    assert HOSTILE_NAME in text and '<script>alert("x")</script>' in text  # shown as text
    assert "Score distribution" in text and "Students by score, highest first: where each is stuck" in text
    # Weighted points: the shape test is worth 3, softmax weighs 2; students listed by total, highest first
    assert re.search(r"Points \(×2\).*?Output has the same shape as x</td><td class=\"num\">6<", page, re.S)
    students = page.split("Students by score")[1]
    order = [students.index(f'<td class="name">{name}</td>') for name in ("alice", "carol", "bob")]
    assert order == sorted(order) and "24/24" in students and "18/18" in students
    assert "stuck at: " in text and "pe.py: no such file" in text and "all passed" in text
    # sinusoidal_pe: carol handed in no pe.py, the hostile one's is not UTF-8; named apart from the pass rates
    assert "Not handed in (1, 0 points): carol" in text and "Pass rates over the 2 gradable hand-in(s)." in text
    assert "Handed in but not gradable (1, 0 points): " in text and "(pe.py: not a UTF-8 text file)" in text


def test_report_command_makes_the_same_outputs_from_the_results(graded, course, tmp_path):
    _, _, reports = graded
    again = grader("report", str(course / "results.jsonl"), "--reports", str(tmp_path / "again"),
                   "--assignment", str(course / "assignment.toml"))
    assert again.returncode == 0, again.stderr
    for path in reports.rglob("*"):
        if path.is_file() and path.name != "summary.txt":  # the batch's summary also lists what it did not grade
            assert (tmp_path / "again" / path.relative_to(reports)).read_bytes() == path.read_bytes(), path


def normalised(folder):
    """Every output, with what differs between two gradings of the same files (times, dates) blanked."""
    texts = {}
    for path in sorted(folder.rglob("*")):
        if path.suffix == ".zip":  # the feedback zip: its pages
            with zipfile.ZipFile(path) as archive:
                texts |= {f"{path.name}/{name}": archive.read(name).decode() for name in archive.namelist()}
        elif path.is_file():
            text = path.read_text()
            text = re.sub(r'(time|"execution_time"|value)(="|": )[0-9.T:+-]+', r"\1\2_", text)
            texts[str(path.relative_to(folder))] = text
    return texts


def test_an_interrupted_run_resumes_to_the_same_outputs(graded, course, tmp_path):
    _, _, reports = graded
    out = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "grader", "batch", str(course / "class"), "--assignment",
               str(course / "assignment.toml"), "--out", str(out), "--reports", str(tmp_path / "reports"),
               "--timeout", "5", "--jobs", "1"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert process.stderr.readline().startswith("Layout: plain folder")
    first = process.stderr.readline()  # the first graded submission is on disk
    assert first.startswith("[1/"), first
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 130
    assert not (tmp_path / "reports").exists()
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0 and "already graded" in resumed.stderr
    assert normalised(tmp_path / "reports") == normalised(reports)


def test_gradescope_entry_grades_the_submission_folder(course, tmp_path):
    results = tmp_path / "results" / "results.json"
    process = grader("gradescope", "--assignment", str(course / "assignment.toml"),
                     "--submission", str(course / "class" / "bob"), "--results", str(results), "--timeout", "5")
    assert process.returncode == 0, process.stderr
    data = json.loads(results.read_text())
    assert len(data["tests"]) == 13 and data["score"] < 24
    assert {t["status"] for t in data["tests"]} == {"passed", "failed"}


@pytest.mark.parametrize("assignment, expected", [
    ('title = "x"\ncolour = 1\n[[exercise]]\nid = "softmax"\n', "assignment.toml:2: unknown key 'colour'"),
    ('[[exercise]]\nid = "softmax"\n\n[[exercise]]\nid = "gelu"\nweight = -1\n',
     "assignment.toml:4: weight of 'gelu' should be a positive number up to 1e+06, not -1"),
    ('[[exercise]]\nid = "softmax"\nweight = 1e308\n',
     "assignment.toml:1: weight of 'softmax' should be a positive number up to 1e+06, not 1e+308"),
    ('[[exercise]]\nid = "no_such_exercise"\n', "assignment.toml:1: exercise 'no_such_exercise': "),
    ('[[exercise]]\nid = "softmax"\nfile = "../x.py"\n', "assignment.toml:1: file of 'softmax' should be a file name"),
    ('[[exercise]]\nid = "softmax"\n[[exercise]]\nid = "softmax"\n', "exercise 'softmax' is listed twice"),
    ('title = "x"\n', "assignment.toml: lists no exercise"),
])
def test_a_bad_assignment_file_is_one_line_naming_the_line(tmp_path, assignment, expected):
    (tmp_path / "assignment.toml").write_text(assignment)
    (tmp_path / "class").mkdir()
    process = grader("batch", str(tmp_path / "class"), "--assignment", str(tmp_path / "assignment.toml"),
                     "--out", str(tmp_path / "r.jsonl"))
    assert process.returncode == 2
    assert expected in process.stderr and len(process.stderr.strip().splitlines()) == 1, process.stderr
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("points, expected", [
    ('"Output has the same shape as x" = 0', ":11: points for 'Output has the same shape as x' should be a positive"),
    ('"Output has the same shape as x" = nan', ":11: points for 'Output has the same shape as x' should be a positive"),
    ('"Output has the same shape as x" = true', ":11: points for 'Output has the same shape as x' should be a positive"),
    ('"No such test" = 2', ":11: points: no hidden test is named 'No such test'"),
])
def test_bad_points_are_one_line_naming_the_line(tmp_path, points, expected):
    softmax = shutil.copytree(SOFTMAX, tmp_path / "softmax")
    metadata = (softmax / "exercise.toml").read_text().split("hints")[0]  # the keys before the hints
    (softmax / "exercise.toml").write_text(metadata + f"[points]\n{points}\n")
    line = len(metadata.splitlines()) + 2  # after the keys and the [points] header
    assert (softmax / "exercise.toml").read_text().splitlines()[line - 1] == points
    process = grader("check", str(softmax), str(SOFTMAX / "solution.py"))
    assert process.returncode == 2
    expected = expected.replace(":11:", f":{line}:")
    assert f"exercise.toml{expected}" in process.stderr and len(process.stderr.strip().splitlines()) == 1


def test_a_per_test_time_limit_in_the_exercise_is_enforced_by_check(tmp_path):
    softmax = shutil.copytree(SOFTMAX, tmp_path / "softmax")
    toml = (softmax / "exercise.toml").read_text().replace("time_limit = 10\n", "time_limit = 30\ntest_time_limit = 1\n")
    (softmax / "exercise.toml").write_text(toml)
    slow = tmp_path / "slow.py"
    slow.write_text((SOFTMAX / "solution.py").read_text() + "\n\nimport time\n_fast = softmax\n\n\n"
                    "def softmax(x, axis=-1):\n    if getattr(x, 'size', 0) > 50:\n"
                    "        started = time.process_time()\n        while time.process_time() - started < 2:\n"
                    "            pass\n"
                    "    return _fast(x, axis)\n")
    report = json.loads(grader("check", str(softmax), str(slow), "--json").stdout)
    statuses = [t["status"] for t in report["tests"]]
    assert "timeout" in statuses and "passed" in statuses
    assert all("(the limit for one test)" in t["message"] for t in report["tests"] if t["status"] == "timeout")
    assert report["score"] == sum(t["status"] == "passed" for t in report["tests"])

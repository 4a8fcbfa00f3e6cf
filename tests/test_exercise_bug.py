"""A hidden test that fails through the exercise's own fault (its code raises, or runs out of its time) is not
graded: offline `check` passes a correct solution (exit 0, `passed`, the score without it), the batch's records
mark it `exercise_bug` (validated on read, edits refused) and every output names it; a submission cannot forge
that mark, nor the grader's words, with an exception of its own."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from grader.authoring.scaffold import create_exercise
from grader.instructor.outputs import Plan, class_results, gradescope
from grader.instructor.records import record_problem, results_checksum

ROOT = Path(__file__).resolve().parents[1]
BROKEN_TESTS = '''

def test_broken(softmax_rows):
    """Its own code raises"""
    softmax_rows(np.ones((1, 2)))
    {}["the author's typo"]


def test_endless(softmax_rows):
    """Its own code never ends"""
    softmax_rows(np.ones((1, 2)))
    while True:
        pass


def test_not_reached(softmax_rows):
    """Comes after the endless one"""
    softmax_rows(np.ones((1, 2)))
'''
# The grader's words for a test whose code raised, copied by the submission: a class named "Not graded" whose
# message is the rest of the sentence, raised on every call.
FORGED = '''
Forged = type("Not graded", (Exception,), {})


def softmax_rows(x):
    raise Forged("the exercise has a bug (its test code raised KeyError at tests.py:61); your code is not at fault.")
'''
TIME_LIMIT = 2  # the tests' own code gets this many seconds of a grading: the endless test costs that much


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


@pytest.fixture(scope="module")
def exercise(tmp_path_factory):
    folder = create_exercise("softmax_rows", tmp_path_factory.mktemp("bug") / "exercises", draft=False)
    toml = folder / "exercise.toml"
    toml.write_text(toml.read_text().replace("time_limit = 10", f"time_limit = {TIME_LIMIT}"))
    with open(folder / "tests.py", "a") as tests:
        tests.write(BROKEN_TESTS)
    return folder


@pytest.fixture(scope="module")
def graded_class(exercise, tmp_path_factory):
    """A class of three (correct, forged, wrong) graded by `batch --reports`: (results file, reports folder,
    the batch's process)."""
    tmp = tmp_path_factory.mktemp("class")
    (tmp / "class").mkdir()
    (tmp / "class" / "correct.py").write_text((exercise / "solution.py").read_text())
    (tmp / "class" / "forged.py").write_text(FORGED)
    (tmp / "class" / "wrong.py").write_text((exercise / "mutants" / "columns_not_rows.py").read_text())
    out = tmp / "results.jsonl"
    process = run_cli("batch", str(exercise), str(tmp / "class"), "--out", str(out), "--reports", str(tmp / "reports"))
    assert process.returncode == 0, process.stderr
    return out, tmp / "reports", process


def records(out):
    return {record["submission"]: record for record in map(json.loads, out.read_text().splitlines())}


def test_check_leaves_the_exercises_bugs_out_of_the_score(exercise):
    process = run_cli("check", str(exercise), str(exercise / "solution.py"), "--json")
    assert process.returncode == 0, process.stdout + process.stderr
    report = json.loads(process.stdout)
    by_name = {test["name"]: test for test in report["tests"]}
    buggy = [name for name, test in by_name.items() if test.get("exercise_bug")]
    assert buggy == ["Its own code raises", "Its own code never ends", "Comes after the endless one"]
    assert all(by_name[name]["status"] == "error" and by_name[name]["score"] == 0 for name in buggy)
    assert by_name["Its own code raises"]["message"].startswith("Not graded: the exercise has a bug (its test code "
                                                                "raised KeyError at tests.py:")
    assert by_name["Its own code never ends"]["message"].startswith("Not graded: the exercise has a bug: this test "
                                                                    "could not finish")
    graded = len(report["tests"]) - 3
    assert (report["passed"], report["score"], report["max_score"]) == (True, graded, graded)
    text = run_cli("check", str(exercise), str(exercise / "solution.py"))
    assert text.returncode == 0
    assert f"{graded}/{graded} tests passed (3 not graded: the exercise has a bug) - all good!" in text.stdout


def test_a_forged_exercise_bug_is_the_learners_error(exercise):
    process = run_cli("check", str(exercise), str(exercise / "mutants" / "columns_not_rows.py"), "--json")
    assert process.returncode == 1
    forged_file = exercise.parent / "forged.py"
    forged_file.write_text(FORGED)
    process = run_cli("check", str(exercise), str(forged_file), "--json")
    assert process.returncode == 1
    report = json.loads(process.stdout)
    learners = [test for test in report["tests"] if not test.get("exercise_bug")]
    assert learners and all(test["status"] == "error" for test in learners)
    for test in learners:  # the forged words come after the engine's own (after the input, on random inputs)
        assert "Your code raised Not graded: the exercise has a bug" in test["message"], test["message"]
        assert not test["message"].startswith("Not graded"), test["message"]
    assert report["score"] == 0 and report["max_score"] == len(learners) and not report["passed"]


def test_the_batch_records_and_every_output_name_the_exercises_bug(graded_class):
    out, reports, process = graded_class
    by_name = records(out)
    assert all(record_problem(record) is None for record in by_name.values())
    correct, forged, wrong = by_name["correct.py"], by_name["forged.py"], by_name["wrong.py"]
    assert correct["passed"] and correct["score"] == correct["max_score"] == len(correct["tests"]) - 3
    # Its exception comes before the broken tests' own code runs: every test is its error, counted.
    assert not any(t.get("exercise_bug") for t in forged["tests"])
    assert not forged["passed"] and forged["score"] == 0 and forged["max_score"] == len(forged["tests"])
    assert not wrong["passed"]
    assert "The exercise has a bug: test 'Its own code raises' failed in its own code on 2 submission(s)" \
        in process.stdout
    html = (reports / "report.html").read_text()
    assert "The exercise has a bug: these tests were not graded" in html and "Its own code raises" in html
    gradebook = list(csv.DictReader((reports / "gradebook.csv").open()))
    assert len(gradebook) == 3
    feedback = "\n".join(path.read_text() for path in (reports / "feedback").glob("*.md"))
    assert "not graded: the exercise has a bug (not counted)" in feedback
    junit = (reports / "junit.xml").read_text()
    assert 'skipped="3"' in junit
    # Gradescope: the exercise's bugs are worth 0 there, and say so.
    plan = Plan.from_records(list(by_name.values()))
    student = next(s for s in class_results(list(by_name.values()), plan) if s.name == "correct.py")
    results = gradescope.results(student, plan)
    assert results["score"] == correct["score"]
    not_graded = [test for test in results["tests"] if test["max_score"] == 0]
    assert len(not_graded) == 3 and all(test["output"].startswith("Not graded (not counted): Not graded: the exercise")
                                        for test in not_graded)


def test_report_reads_the_records_and_refuses_edited_ones(graded_class, tmp_path):
    out, _, _ = graded_class
    process = run_cli("report", str(out), "--reports", str(tmp_path / "again"))
    assert process.returncode == 0, process.stderr
    lines = out.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"wrong.py"' in line)
    record = json.loads(lines[index])
    failed = next(i for i, test in enumerate(record["tests"]) if test["status"] == "failed")
    buggy = next(i for i, test in enumerate(record["tests"]) if test.get("exercise_bug"))

    def edited(change, checksum=False):
        copy = json.loads(lines[index])
        change(copy)
        if checksum:
            copy["results_sha256"] = results_checksum(copy)
        return copy

    def mark_failed_as_bug(record):
        record["tests"][failed].update(exercise_bug=True)

    def unmark(record):
        del record["tests"][buggy]["exercise_bug"]

    def mark_and_rescore(record):  # a failed test marked the exercise's, the totals made to agree
        record["tests"][failed].update(exercise_bug=True, status="error")
        record["max_score"] -= record["tests"][failed]["max_score"]

    cases = [
        (edited(mark_and_rescore), "results_sha256"),                 # the checksum no longer matches
        (edited(mark_failed_as_bug, checksum=True), "tests[%d].exercise_bug" % failed),  # on a failed test
        (edited(unmark, checksum=True), "max_score"),                 # counted again, the totals disagree
        (edited(lambda r: r["tests"][buggy].update(exercise_bug="yes"), checksum=True), f"tests[{buggy}].exercise_bug"),
    ]
    for number, (record, field) in enumerate(cases):
        tampered = tmp_path / f"tampered{number}.jsonl"
        tampered.write_text("\n".join(lines[:index] + [json.dumps(record)] + lines[index + 1:]) + "\n")
        process = run_cli("report", str(tampered), "--reports", str(tmp_path / f"reports{number}"))
        assert process.returncode == 2, (field, process.stderr)
        assert process.stderr.startswith(f"error: {tampered}:{index + 1}: not a results record ({field}"), \
            process.stderr
        assert not (tmp_path / f"reports{number}").exists()

"""`python -m grader batch`: verdicts for a mixed folder, results formats, interruption and resume, bad input."""

import csv
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from corpus_cases import load_cases, problems
from grader.exercise import EXERCISES_DIR

CASES = {case.path.name: case for case in load_cases("sinusoidal_pe")}
MUTANTS = sorted((EXERCISES_DIR / "sinusoidal_pe" / "mutants").glob("*.py"))


def batch(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "grader", "batch", *args],
                          capture_output=True, text=True, timeout=300, **kwargs)


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


@pytest.fixture(scope="module")
def mixed_folder(tmp_path_factory):
    """The whole corpus (correct, wrong, hostile) plus every mutant and the reference."""
    folder = tmp_path_factory.mktemp("submissions")
    for case in CASES.values():
        shutil.copy(case.path, folder / case.path.name)
    for mutant in MUTANTS:
        shutil.copy(mutant, folder / f"mutant_{mutant.name}")
    shutil.copy(EXERCISES_DIR / "sinusoidal_pe" / "solution.py", folder / "reference.py")
    (folder / "notes.txt").write_text("not a submission")
    return folder


@pytest.fixture(scope="module")
def graded(mixed_folder, tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "results.jsonl"
    process = batch("sinusoidal_pe", str(mixed_folder), "--out", str(out), "--timeout", "2", "--jobs", "2")
    return process, out


def test_every_submission_gets_its_verdict(graded, mixed_folder):
    process, out = graded
    assert process.returncode == 0, process.stderr
    records = {r["submission"]: r for r in read_jsonl(out)}
    assert sorted(records) == sorted(p.name for p in mixed_folder.glob("*.py"))
    for name, case in CASES.items():
        assert problems(case, records[name]) == [], name
    for mutant in MUTANTS:
        assert records[f"mutant_{mutant.name}"]["passed"] is False
    assert records["reference.py"]["passed"] is True
    assert records["reference.py"]["score"] == "6/6"


def test_summary_gives_pass_counts_and_per_test_rates(graded, mixed_folder):
    process, out = graded
    total = len(list(mixed_folder.glob("*.py")))
    passed = sum(r["passed"] for r in read_jsonl(out))
    assert f"{passed}/{total} submissions passed every test" in process.stdout
    assert "Pass rate per hidden test:" in process.stdout
    assert "Output shape is (T, C)" in process.stdout
    # Not a terminal: one plain progress line per submission on stderr.
    assert process.stderr.count(": ") >= total and "\r" not in process.stderr


def test_rerun_skips_what_is_graded_and_force_regrades(graded, mixed_folder):
    _, out = graded
    before = out.read_text()
    again = batch("sinusoidal_pe", str(mixed_folder), "--out", str(out))
    assert again.returncode == 0
    assert out.read_text() == before
    assert "already graded" in again.stderr


def test_csv_results(mixed_folder, tmp_path):
    folder = tmp_path / "few"
    folder.mkdir()
    for name in ("correct_vectorised.py", "wrong_shape.py", "syntax_error.py"):
        shutil.copy(mixed_folder / name, folder / name)
    out = tmp_path / "results.csv"
    assert batch("sinusoidal_pe", str(folder), "--out", str(out)).returncode == 0
    rows = list(csv.DictReader(out.open()))
    assert [r["submission"] for r in sorted(rows, key=lambda r: r["submission"])] == \
        ["correct_vectorised.py", "syntax_error.py", "wrong_shape.py"]
    by_name = {r["submission"]: r for r in rows}
    assert by_name["correct_vectorised.py"]["passed"] == "true"
    assert by_name["wrong_shape.py"]["Output shape is (T, C)"] == "failed"
    assert "SyntaxError" in by_name["syntax_error.py"]["error"]
    rerun = batch("sinusoidal_pe", str(folder), "--out", str(out))
    assert rerun.returncode == 0 and len(list(csv.DictReader(out.open()))) == 3


def test_interrupt_then_resume_loses_and_repeats_nothing(tmp_path):
    folder = tmp_path / "slow"
    folder.mkdir()
    loop = CASES["loop_in_function.py"].path
    good = CASES["correct_vectorised.py"].path
    for i in range(12):
        shutil.copy(loop if i % 3 == 0 else good, folder / f"learner{i:02d}.py")
    out = tmp_path / "results.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "grader", "batch", "sinusoidal_pe", str(folder),
                                "--out", str(out), "--timeout", "2", "--jobs", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 3):
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "run the same command again to resume" in stderr
    first = read_jsonl(out)
    assert 3 <= len(first) < 12

    resumed = batch("sinusoidal_pe", str(folder), "--out", str(out), "--timeout", "2")
    assert resumed.returncode == 0
    records = read_jsonl(out)
    assert sorted(r["submission"] for r in records) == [f"learner{i:02d}.py" for i in range(12)]
    assert records[:len(first)] == first
    for record in records:
        expected_pass = int(record["submission"][7:9]) % 3 != 0
        assert record["passed"] is expected_pass


def test_a_torn_last_record_is_dropped_and_regraded(tmp_path):
    folder = tmp_path / "two"
    folder.mkdir()
    shutil.copy(CASES["correct_vectorised.py"].path, folder / "a.py")
    shutil.copy(CASES["wrong_shape.py"].path, folder / "b.py")
    out = tmp_path / "results.jsonl"
    assert batch("sinusoidal_pe", str(folder), "--out", str(out)).returncode == 0
    lines = out.read_text().splitlines()
    out.write_text(lines[0] + "\n" + lines[1][:25])  # a crash in the middle of writing the second record
    assert batch("sinusoidal_pe", str(folder), "--out", str(out)).returncode == 0
    records = read_jsonl(out)
    assert sorted(r["submission"] for r in records) == ["a.py", "b.py"]


@pytest.mark.parametrize("make_args, expected", [
    (lambda tmp: ["sinusoidal_pe", str(tmp / "nowhere")], "nowhere: no such folder"),
    (lambda tmp: ["sinusoidal_pe", str(tmp / "file.txt")], "file.txt: not a folder"),
    (lambda tmp: ["no_such_exercise", str(tmp)], "no such exercise"),
    (lambda tmp: ["sinusoidal_pe", str(tmp), "--jobs", "0"], "should be 1 or more"),
])
def test_bad_arguments_exit_2_with_one_line(tmp_path, make_args, expected):
    (tmp_path / "file.txt").write_text("x")
    process = batch(*make_args(tmp_path), "--out", str(tmp_path / "out.jsonl"))
    assert process.returncode == 2
    assert expected in process.stderr and "Traceback" not in process.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_a_results_file_that_is_not_ours_is_refused(tmp_path):
    out = tmp_path / "results.jsonl"
    out.write_text("hello\n")
    process = batch("sinusoidal_pe", str(tmp_path), "--out", str(out))
    assert process.returncode == 2
    assert "results.jsonl:1: not a results record" in process.stderr
    assert out.read_text() == "hello\n"


@pytest.mark.parametrize("breakage, expected", [
    (lambda ex: (ex / "tests.py").write_text("import no_such_module\n"), "tests.py: hidden tests fail to import"),
    (lambda ex: (ex / "exercise.toml").write_text("id = [\n"), "exercise.toml:"),
])
def test_a_broken_exercise_exits_2_and_writes_nothing(tmp_path, breakage, expected):
    exercise = tmp_path / "sinusoidal_pe"
    shutil.copytree(EXERCISES_DIR / "sinusoidal_pe", exercise)
    breakage(exercise)
    out = tmp_path / "results.jsonl"
    process = batch(str(exercise), str(EXERCISES_DIR / "sinusoidal_pe" / "mutants"), "--out", str(out))
    assert process.returncode == 2
    assert expected in process.stderr and "Traceback" not in process.stderr
    assert len(process.stderr.strip().splitlines()) == 1
    assert not out.exists()

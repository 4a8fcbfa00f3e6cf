"""`python -m grader batch`: verdicts for a mixed folder, results formats, interruption and resume, what is
regraded, locking, what is not a submission, bad input and bad results files."""

import csv
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from corpus_cases import load_cases, problems
from grader.instructor.batch import Graded, ResultsFile
from grader.exercise import EXERCISES_DIR
from grader.instructor.records import results_checksum

CASES = {case.path.name: case for case in load_cases("sinusoidal_pe")}
MUTANTS = sorted((EXERCISES_DIR / "sinusoidal_pe" / "mutants").glob("*.py"))


def batch(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "grader", "batch", *args],
                          capture_output=True, text=True, timeout=300, **kwargs)


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text().split("\n")[:-1]]


def graded_now(process):
    """The submissions a batch graded (not reused), from its progress lines."""
    return sorted(line.split("] ", 1)[1].split(": ")[0] for line in process.stderr.splitlines()
                  if line.startswith("["))


def copy_cases(folder, names):
    """`folder` holding the corpus cases {target name: case name}."""
    folder.mkdir(exist_ok=True)
    for target, case in names.items():
        shutil.copy(CASES[case].path, folder / target)
    return folder


def leftovers(folder, *expected):
    """What is in `folder` besides `expected` (a lock or temporary file left behind would show here)."""
    return sorted(set(os.listdir(folder)) - set(expected))


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
    # The arrays drawn for a learner (check --json has them) stay out of a class's results file.
    assert not any("comparison" in test for record in records.values() for test in record["tests"])
    assert records["reference.py"]["passed"] is True
    assert (records["reference.py"]["score"], records["reference.py"]["max_score"]) == (6, 6)
    tests_sha256 = hashlib.sha256((EXERCISES_DIR / "sinusoidal_pe" / "tests.py").read_text().encode()).hexdigest()
    for name, record in records.items():
        assert record["exercise"] == "sinusoidal_pe" and record["tests_sha256"] == tests_sha256
        assert record["submission_sha256"] == hashlib.sha256((mixed_folder / name).read_bytes()).hexdigest()


def test_summary_gives_pass_counts_and_per_test_rates(graded, mixed_folder):
    process, out = graded
    total = len(list(mixed_folder.glob("*.py")))
    passed = sum(r["passed"] for r in read_jsonl(out))
    assert f"{passed}/{total} submissions passed every test" in process.stdout
    assert "Pass rate per hidden test:" in process.stdout
    assert "Output shape is (T, C)" in process.stdout
    assert "Not graded (1):\n  notes.txt: not a Python file" in process.stdout
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
    assert leftovers(tmp_path, "slow", "results.jsonl") == []


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_torn_last_record_is_dropped_and_regraded(tmp_path, suffix):
    folder = copy_cases(tmp_path / "two", {"a.py": "correct_vectorised.py", "b.py": "wrong_shape.py"})
    out = tmp_path / f"results{suffix}"
    assert batch("sinusoidal_pe", str(folder), "--out", str(out)).returncode == 0
    complete = out.read_text()
    out.write_text(complete[:-40])  # a crash in the middle of writing the last record
    again = batch("sinusoidal_pe", str(folder), "--out", str(out))
    assert again.returncode == 0
    assert len(graded_now(again)) == 1
    lines = out.read_text().splitlines()
    if suffix == ".csv":
        def undated(text):
            return sorted(re.sub(r",[0-9T:+-]{25},", ",<graded_at>,", line) for line in text.splitlines())
        assert undated(out.read_text()) == undated(complete)
    else:
        assert sorted((r["submission"], r["score"]) for r in map(json.loads, lines)) == [("a.py", 6),
                                                                                          ("b.py", 0)]


def test_resume_regrades_just_the_edited_submission(tmp_path):
    folder = copy_cases(tmp_path / "three", {"a.py": "correct_vectorised.py", "b.py": "wrong_shape.py",
                                             "c.py": "correct_loops_math.py"})
    out = tmp_path / "results.jsonl"
    assert batch("sinusoidal_pe", str(folder), "--out", str(out), "--timeout", "3").returncode == 0
    before = read_jsonl(out)
    shutil.copy(CASES["correct_vectorised.py"].path, folder / "b.py")  # the learner fixed it
    again = batch("sinusoidal_pe", str(folder), "--out", str(out), "--timeout", "3")
    assert again.returncode == 0, again.stderr
    assert "2 of 3 already graded" in again.stderr and graded_now(again) == ["b.py"]
    after = read_jsonl(out)
    assert [r["submission"] for r in after] == [r["submission"] for r in before]  # replaced in place
    changed = [new for new, old in zip(after, before) if new != old]
    assert [r["submission"] for r in changed] == ["b.py"] and changed[0]["passed"] is True
    assert changed[0]["submission_sha256"] == hashlib.sha256((folder / "b.py").read_bytes()).hexdigest()
    assert "3/3 submissions passed" in again.stdout
    assert leftovers(tmp_path, "three", "results.jsonl") == []


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_editing_the_hidden_tests_regrades_everything(tmp_path, suffix):
    exercise = tmp_path / "sinusoidal_pe"
    shutil.copytree(EXERCISES_DIR / "sinusoidal_pe", exercise)
    folder = copy_cases(tmp_path / "two", {"a.py": "correct_vectorised.py", "b.py": "wrong_shape.py"})
    out = tmp_path / f"results{suffix}"
    assert batch(str(exercise), str(folder), "--out", str(out), "--timeout", "3").returncode == 0
    tests = exercise / "tests.py"
    tests.write_text(tests.read_text().replace('"""Output shape is (T, C)"""', '"""Output shape is (T, C), T first"""'))
    again = batch(str(exercise), str(folder), "--out", str(out), "--timeout", "3")
    assert again.returncode == 0, again.stderr
    assert "already graded" not in again.stderr and graded_now(again) == ["a.py", "b.py"]
    assert "Output shape is (T, C), T first" in again.stdout
    tests_sha256 = hashlib.sha256(tests.read_text().encode()).hexdigest()
    if suffix == ".csv":
        rows = list(csv.DictReader(out.open()))
        assert "Output shape is (T, C), T first" in rows[0] and "Output shape is (T, C)" not in rows[0]
    else:
        rows = read_jsonl(out)
    assert sorted(r["submission"] for r in rows) == ["a.py", "b.py"]
    assert all(r["tests_sha256"] == tests_sha256 for r in rows)
    assert leftovers(tmp_path, "sinusoidal_pe", "two", out.name) == []


@pytest.mark.parametrize("make_args, expected", [
    (lambda tmp: ["sinusoidal_pe", str(tmp / "nowhere")], "nowhere: no such folder"),
    (lambda tmp: ["sinusoidal_pe", str(tmp / "file.txt")], "file.txt: not a folder"),
    (lambda tmp: ["no_such_exercise", str(tmp)], "no such exercise"),
    (lambda tmp: ["sinusoidal_pe", str(tmp), "--jobs", "0"], "should be 1 or more"),
    (lambda tmp: ["sinusoidal_pe", str(tmp), "--entry-file", "sub/main.py"], "should be a file name"),
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
    folder = copy_cases(tmp_path / "class", {"a.py": "correct_vectorised.py"})
    process = batch("sinusoidal_pe", str(folder), "--out", str(out))
    assert process.returncode == 2
    assert "results.jsonl:1: not a results record" in process.stderr
    assert out.read_text() == "hello\n"


@pytest.mark.parametrize("breakage, expected", [
    (lambda ex: (ex / "tests.py").write_text("import no_such_module\n"), "tests.py:1: hidden tests fail to import"),
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
    # One line for each problem (a module the browser lacks is one, and it fails to import), each naming its file.
    assert all(re.match(rf"(error: )?{re.escape(str(exercise))}/[\w.]+(:\d+)?: ", line)
               for line in process.stderr.strip().splitlines())
    assert not out.exists()


@pytest.fixture(scope="module")
def results_files(tmp_path_factory):
    """A JSON Lines and a CSV results file for a folder of two submissions."""
    tmp = tmp_path_factory.mktemp("results")
    folder = copy_cases(tmp / "two", {"a.py": "correct_vectorised.py", "b.py": "syntax_error.py"})
    for suffix in (".jsonl", ".csv"):
        assert batch("sinusoidal_pe", str(folder), "--out", str(tmp / f"results{suffix}")).returncode == 0
    return folder, {suffix: (tmp / f"results{suffix}").read_text() for suffix in (".jsonl", ".csv")}


def _edit_record(line, **changes):
    record = json.loads(line)
    record.update(changes)
    return json.dumps({k: v for k, v in record.items() if v is not None})


@pytest.mark.parametrize("suffix, corrupt, where", [
    (".jsonl", lambda lines: lines.__setitem__(1, "{not json"), 2),
    (".jsonl", lambda lines: lines.__setitem__(0, _edit_record(lines[0], submission_sha256=None)), 1),
    (".jsonl", lambda lines: lines.__setitem__(1, _edit_record(lines[1], tests=5)), 2),
    (".jsonl", lambda lines: lines.__setitem__(1, _edit_record(lines[1], passed="yes")), 2),
    (".jsonl", lambda lines: lines.__setitem__(0, _edit_record(lines[0], tests=[{"name": "x", "status": "?"}])), 1),
    (".jsonl", lambda lines: lines.__setitem__(0, "[1, 2]"), 1),
    (".jsonl", lambda lines: lines.__setitem__(1, _edit_record(lines[1], score="0/6")), 2),  # the old string score
    (".jsonl", lambda lines: lines.__setitem__(1, re.sub(r'"score": \d+', '"score": NaN', lines[1])), 2),
    (".csv", lambda lines: lines.__setitem__(2, lines[2].rsplit(",", 3)[0]), 3),          # a short row
    (".csv", lambda lines: lines.__setitem__(1, re.sub(",(true|false),", ",maybe,", lines[1], 1)), 2),
    (".csv", lambda lines: lines.__setitem__(1, '"unclosed,' + lines[1]), 2),
    (".csv", lambda lines: lines.__setitem__(0, lines[0].rsplit(",", 3)[0]), 1),          # columns of another kind
])
def test_a_corrupted_results_file_is_refused_untouched(results_files, tmp_path, suffix, corrupt, where):
    folder, contents = results_files
    lines = contents[suffix].splitlines()
    corrupt(lines)
    out = tmp_path / f"results{suffix}"
    out.write_text("\n".join(lines) + "\n")
    before = out.read_bytes()
    process = batch("sinusoidal_pe", str(folder), "--out", str(out))
    assert process.returncode == 2
    assert f"{out}:{where}: not a results record" in process.stderr and "--force" in process.stderr
    assert "Traceback" not in process.stderr and len(process.stderr.strip().splitlines()) == 1
    assert out.read_bytes() == before
    assert leftovers(tmp_path, out.name) == []
    forced = batch("sinusoidal_pe", str(folder), "--out", str(out), "--force")
    assert forced.returncode == 0 and sorted(graded_now(forced)) == ["a.py", "b.py"]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_the_results_of_another_exercise_are_refused_untouched(tmp_path, suffix):
    folder = copy_cases(tmp_path / "one", {"a.py": "correct_vectorised.py"})
    out = tmp_path / f"results{suffix}"
    assert batch("relative_shift", str(folder), "--out", str(out)).returncode == 0
    before = out.read_bytes()
    process = batch("sinusoidal_pe", str(folder), "--out", str(out))
    assert process.returncode == 2
    assert f"{out}: holds results of exercise 'relative_shift', not of 'sinusoidal_pe'" in process.stderr
    assert "Traceback" not in process.stderr and len(process.stderr.strip().splitlines()) == 1
    assert out.read_bytes() == before


def test_a_second_batch_on_the_same_results_file_exits_at_once(tmp_path):
    folder = copy_cases(tmp_path / "slow", {"a.py": "loop_in_function.py", "b.py": "loop_in_function.py"})
    out = tmp_path / "results.jsonl"
    first = subprocess.Popen([sys.executable, "-m", "grader", "batch", "sinusoidal_pe", str(folder),
                              "--out", str(out), "--timeout", "2", "--jobs", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the file exists as soon as it is created: let the first batch lock it
        second = batch("sinusoidal_pe", str(folder), "--out", str(out), "--timeout", "2")
        assert first.poll() is None, "the first batch should still be grading"
        assert second.returncode == 2
        assert f"{out}: another batch is writing this results file" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        _, stderr = first.communicate(timeout=60)
    assert first.returncode == 0, stderr
    assert sorted(r["submission"] for r in read_jsonl(out)) == ["a.py", "b.py"]
    assert leftovers(tmp_path, "slow", "results.jsonl") == []
    third = batch("sinusoidal_pe", str(folder), "--out", str(out))  # the lock went with the first batch
    assert third.returncode == 0 and "2 of 2 already graded" in third.stderr


def test_every_entry_is_graded_or_listed_with_its_reason(tmp_path):
    folder = tmp_path / "class"
    good = CASES["correct_vectorised.py"].path
    copy_cases(folder, {"dan.py": "wrong_shape.py"})
    (folder / "notes.txt").write_text("not a submission")
    os.mkfifo(folder / "pipe.py")
    (folder / "gone.py").symlink_to(tmp_path / "nowhere.py")
    (folder / "data.ipynb").write_text("{}")
    (folder / "big.py").write_text("# padding\n" * 200_000)
    (folder / "latin1.py").write_bytes("# café\n".encode("latin-1"))
    (folder / ".hidden.py").write_text("hidden files are ignored")
    fd = os.open(os.fsencode(folder) + b"/caf\xe9.py", os.O_WRONLY | os.O_CREAT, 0o644)  # not a UTF-8 name
    os.write(fd, good.read_bytes())
    os.close(fd)
    copy_cases(folder / "alice", {"submission.py": "correct_vectorised.py"})
    copy_cases(folder / "bob", {"one.py": "correct_vectorised.py", "two.py": "wrong_shape.py"})
    copy_cases(folder / "carol", {"main.py": "correct_vectorised.py", "helper.py": "wrong_shape.py"})
    (folder / "erin").mkdir()
    out = tmp_path / "results.jsonl"
    process = batch("sinusoidal_pe", str(folder), "--out", str(out), "--entry-file", "main.py", "--timeout", "3")
    assert process.returncode == 0, process.stderr
    records = {r["submission"]: r for r in read_jsonl(out)}
    assert sorted(records) == ["alice", "caf\\xe9.py", "carol", "dan.py"]
    assert records["alice"]["passed"] and records["carol"]["passed"] and records["caf\\xe9.py"]["passed"]
    assert records["carol"]["submission_sha256"] == hashlib.sha256(good.read_bytes()).hexdigest()
    not_graded = process.stdout.split("Not graded (8):\n", 1)[1].split("\n\n")[0].splitlines()
    assert not_graded == [
        "  big.py: too large (more than 1,000,000 bytes); a submission is a Python file",
        "  bob: a folder with no main.py, and 2 .py files (one.py, two.py)",
        "  data.ipynb: not a Jupyter notebook of format 3 or 4 (its JSON has no \"nbformat\": 4)",
        "  erin: a folder with no main.py, and no .py file or notebook",
        "  gone.py: a symbolic link (links are never followed: hand in a regular file)",
        "  latin1.py: not a UTF-8 text file",
        "  notes.txt: not a Python file or a Jupyter notebook",
        "  pipe.py: not a regular file (a FIFO)",
    ]
    assert ".hidden.py" not in process.stdout + process.stderr
    assert "3/4 submissions passed every test" in process.stdout
    without = batch("sinusoidal_pe", str(folder), "--out", str(tmp_path / "other.jsonl"), "--timeout", "3")
    assert "  carol: a folder with 2 .py files (helper.py, main.py); name the one to grade with --entry-file" \
        in without.stdout


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(tmp_path):
    folder = copy_cases(tmp_path / "class", {"=cmd.py": "correct_vectorised.py", "+sum.py": "wrong_shape.py",
                                             "'quoted.py": "correct_vectorised.py"})
    out = tmp_path / "results.csv"
    assert batch("sinusoidal_pe", str(folder), "--out", str(out), "--timeout", "3").returncode == 0
    lines = out.read_text().splitlines()
    assert sorted(line.split(",")[0] for line in lines[1:]) == sorted(["'+sum.py", "''quoted.py", "'=cmd.py"])
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in csv.reader(out.open()) for cell in row)
    again = batch("sinusoidal_pe", str(folder), "--out", str(out))  # and they read back as the same names
    assert again.returncode == 0 and "3 of 3 already graded" in again.stderr
    assert out.read_text().splitlines() == lines


def test_an_interrupted_rewrite_leaves_the_results_whole_and_no_temporary_file(tmp_path, monkeypatch):
    def record(passed):
        record = {"submission": "a.py", "exercise": "sinusoidal_pe", "submission_sha256": ("1" if passed else "0") * 64,
                  "tests_sha256": "2" * 64, "graded_at": "2025-01-01T00:00:00+00:00", "grader_version": "1",
                  "score": int(passed), "max_score": 1, "passed": passed, "error": None, "stdout": "",
                  "tests": [{"name": "t", "status": "passed" if passed else "failed", "message": "",
                             "duration_ms": 1.0, "stdout": "", "score": int(passed), "max_score": 1}]}
        return {**record, "results_sha256": results_checksum(record)}

    out = tmp_path / "results.jsonl"
    results = ResultsFile(out)
    results.load({"sinusoidal_pe": Graded("2" * 64, ["t"], [1])}, force=False)
    results.add(record(False))
    results.add(record(True))  # regraded: replaces the first when the file is rewritten, on closing

    def interrupted(*args):
        raise KeyboardInterrupt
    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", interrupted)
        with pytest.raises(KeyboardInterrupt):
            results.close()
    assert leftovers(tmp_path, "results.jsonl") == []
    assert [r["passed"] for r in read_jsonl(out)] == [False, True]  # both, appended: nothing lost

    with ResultsFile(out) as again:  # the last record of a submission is the one that counts
        again.load({"sinusoidal_pe": Graded("2" * 64, ["t"], [1])}, force=False)
        assert again.reusable("sinusoidal_pe", "a.py", "1" * 64) is not None
        assert again.reusable("sinusoidal_pe", "a.py", "0" * 64) is None
    assert [r["passed"] for r in read_jsonl(out)] == [True]
    assert leftovers(tmp_path, "results.jsonl") == []


def test_unicode_line_breaks_in_output_do_not_split_a_jsonl_record(tmp_path):
    folder = tmp_path / "breaks"
    folder.mkdir()
    (folder / "chatty.py").write_text(
        "import numpy as np\n\n\ndef sinusoidal_pe(T, C):\n"
        "    print('a\\u2028b\\u2029c\\x85d')\n    return np.zeros((T, C))\n")
    out = tmp_path / "results.jsonl"
    assert batch("sinusoidal_pe", str(folder), "--out", str(out), "--timeout", "3").returncode == 0
    lines = out.read_text().splitlines()  # what a reader that splits on every Unicode line break sees
    assert len(lines) == 1
    assert "a\u2028b\u2029c\x85d" in json.loads(lines[0])["stdout"]

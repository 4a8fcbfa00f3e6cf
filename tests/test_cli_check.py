"""`python -m grader check` on the submission corpus: verdicts, output modes, exit codes, limits."""

import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from corpus_cases import load_cases, problems
from grader.checker.remote import wall_backstop

TIMEOUT = 3
CASES = load_cases("sinusoidal_pe")
SIX_TESTS = [
    "Output shape is (T, C)",
    "At position t=0, even dims are 0 (sin) and odd dims are 1 (cos)",
    "Matches the explicit formula at a hand-checked entry",
    "All values lie in [-1, 1]",
    "Different positions produce different encodings (no collisions)",
    "Larger sequence length still produces a valid table (extrapolation)",
]


def run_cli(*args):
    started = time.monotonic()
    process = subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, timeout=120)
    return process, time.monotonic() - started


@pytest.fixture(scope="module")
def corpus_runs():
    """Every corpus case through the CLI in --json mode, a few at a time."""
    def run(case):
        return run_cli("check", "sinusoidal_pe", str(case.path), "--json", "--timeout", str(TIMEOUT))
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        return dict(zip((c.name for c in CASES), pool.map(run, CASES)))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_corpus_verdict(case, corpus_runs):
    process, elapsed = corpus_runs[case.name]
    lines = process.stdout.splitlines()
    assert len(lines) == 1, f"--json must print exactly one line, got {process.stdout[:500]!r}"
    report = json.loads(lines[0])
    assert set(report) == {"exercise", "passed", "error", "tests", "stdout", "score", "max_score"}
    assert [t["name"] for t in report["tests"]] == SIX_TESTS
    assert problems(case, report) == []
    assert process.returncode == (0 if report["passed"] else 1)
    # Startup (fork server + numpy) plus the wall-clock backstop of a learner that stops answering (it waits
    # without using CPU time) plus a small margin; the pool runs 4 at once.
    assert elapsed < wall_backstop(TIMEOUT) + 10


def test_human_output_marks_each_test_and_summarises(tmp_path):
    process, _ = run_cli("check", "sinusoidal_pe", "tests/corpus/sinusoidal_pe/correct_loops_math.py")
    assert process.returncode == 0
    for name in SIX_TESTS:
        assert f"✓ {name}" in process.stdout
    assert "6/6 tests passed" in process.stdout


def test_human_output_explains_a_failure():
    process, _ = run_cli("check", "sinusoidal_pe", "tests/corpus/sinusoidal_pe/wrong_shape.py")
    assert process.returncode == 1
    assert "✗ Output shape is (T, C)" in process.stdout
    assert "expected" in process.stdout and "got" in process.stdout


def test_a_forged_report_does_not_reach_stdout():
    process, _ = run_cli("check", "sinusoidal_pe", "tests/corpus/sinusoidal_pe/fake_report_printed.py", "--json")
    report = json.loads(process.stdout)
    assert report["passed"] is False
    assert '"passed": true' in report["stdout"]  # the fake is shown as the learner's output, nothing more


def test_exercise_given_as_a_path():
    process, _ = run_cli("check", "exercises/sinusoidal_pe", "tests/corpus/sinusoidal_pe/correct_vectorised.py")
    assert process.returncode == 0


@pytest.mark.parametrize("args, expected", [
    (["check", "no_such_exercise", "tests/corpus/sinusoidal_pe/correct_vectorised.py"], "no such exercise"),
    (["check", "sinusoidal_pe", "missing.py"], "missing.py: no such file"),
    (["check", "sinusoidal_pe", "tests"], "is a folder"),
    (["check", "sinusoidal_pe", "correct.py", "--timeout", "-1"], "positive"),
])
def test_unusable_input_exits_2_with_one_line(args, expected):
    process, _ = run_cli(*args)
    assert process.returncode == 2
    assert expected in process.stderr
    assert "Traceback" not in process.stderr
    assert process.stdout == ""


def test_binary_submission_exits_2(tmp_path):
    path = tmp_path / "binary.py"
    path.write_bytes(b"\xff\xfe\x00garbage")
    process, _ = run_cli("check", "sinusoidal_pe", str(path))
    assert process.returncode == 2
    assert "not a UTF-8 text file" in process.stderr


def test_list_shows_every_exercise():
    process, _ = run_cli("list")
    assert process.returncode == 0
    assert "sinusoidal_pe" in process.stdout
    assert "Sinusoidal positional encoding" in process.stdout


def write_exercise(tmp_path, tests_source):
    """A copy of sinusoidal_pe whose tests.py is `tests_source`."""
    folder = tmp_path / "sinusoidal_pe"
    shutil.copytree("exercises/sinusoidal_pe", folder)
    (folder / "tests.py").write_text(tests_source)
    return folder


@pytest.mark.parametrize("tests_source, expected", [
    ("raise SystemExit(0)\n", "stop while loading: SystemExit"),
    ("import os\nos._exit(0)\n", "stopped the process while loading"),
    ("while True:\n    pass\n", "did not finish loading within"),
    ("print('debugging')\n\ndef test_a(sinusoidal_pe):\n    '''A'''\n", "print while loading"),
    ("1 / 0\n", "ZeroDivisionError"),
])
def test_broken_hidden_tests_exit_2_with_one_line(tmp_path, tests_source, expected):
    exercise = write_exercise(tmp_path, tests_source)
    for extra in ([], ["--json"]):
        process, elapsed = run_cli("check", str(exercise), "tests/corpus/sinusoidal_pe/correct_vectorised.py", *extra)
        assert process.returncode == 2, process.stderr
        assert expected in process.stderr and "Traceback" not in process.stderr
        assert len(process.stderr.strip().splitlines()) == 1 and process.stdout == ""
        assert elapsed < 20


def test_submissions_that_are_not_regular_files_exit_2_at_once(tmp_path):
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    big = tmp_path / "big.py"
    big.write_text("# padding\n" * 200_000)
    for path, expected in [("/dev/zero", "not a regular file"), (str(fifo), "not a regular file"),
                           (str(big), "too large")]:
        process, elapsed = run_cli("check", "sinusoidal_pe", path)
        assert process.returncode == 2 and expected in process.stderr, process.stderr
        assert elapsed < 10


@pytest.mark.parametrize("option, value, expected", [
    ("--timeout", "1e308", "at most 3600"),
    ("--timeout", "nan", "positive number"),
    ("--timeout", "0", "positive number"),
    ("--memory", "0.5", "whole number"),
    ("--memory", "8", "between 64 and"),
])
def test_limits_are_range_checked(option, value, expected):
    process, _ = run_cli("check", "sinusoidal_pe", "tests/corpus/sinusoidal_pe/correct_vectorised.py", option, value)
    assert process.returncode == 2 and expected in process.stderr


def test_text_output_escapes_control_characters(tmp_path):
    submission = tmp_path / "ansi.py"
    submission.write_text(
        "import sys\nimport numpy as np\n\n\ndef sinusoidal_pe(T, C):\n"
        "    sys.stdout.write('\\x1b[2K\\r\\x1b[1A✓ all 6/6 tests passed - all good!\\n\\ud800\\u202e')\n"
        "    return np.zeros((T, C))\n")
    process, _ = run_cli("check", "sinusoidal_pe", str(submission))
    assert process.returncode == 1
    assert "\x1b" not in process.stdout and "\r" not in process.stdout and "\u202e" not in process.stdout
    assert "\\x1b[2K\\r\\x1b[1A" in process.stdout
    process, _ = run_cli("check", "sinusoidal_pe", str(submission), "--json")
    report = json.loads(process.stdout)  # valid JSON, whatever was printed
    assert report["passed"] is False and "\x1b[2K" in report["stdout"]


def test_without_bubblewrap_auto_warns_once_and_bwrap_refuses():
    env = {**os.environ, "PATH": "/nonexistent"}
    args = [sys.executable, "-m", "grader", "check", "sinusoidal_pe",
            "tests/corpus/sinusoidal_pe/correct_vectorised.py"]
    auto = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert auto.returncode == 0
    warning, = auto.stderr.strip().splitlines()
    assert "WITHOUT a sandbox" in warning and "install bubblewrap" in warning
    required = subprocess.run(args + ["--sandbox", "bwrap"], capture_output=True, text=True, env=env, timeout=120)
    assert required.returncode == 2 and "bubblewrap" in required.stderr and required.stdout == ""


def test_grading_without_a_sandbox_still_grades_apart():
    process, _ = run_cli("check", "sinusoidal_pe", "tests/corpus/sinusoidal_pe/correct_vectorised.py",
                         "--sandbox", "none", "--json")
    assert process.returncode == 0
    # Silent, but for one line when learners run as root (nobody cannot read the Python installation here).
    assert process.stderr in ("", ) or (process.stderr.count("\n") == 1
                                        and "learner code runs with rlimits only, as root" in process.stderr)
    assert json.loads(process.stdout)["passed"] is True

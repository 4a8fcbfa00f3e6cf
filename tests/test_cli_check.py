"""`python -m grader check` on the submission corpus: verdicts, output modes, exit codes, limits."""

import concurrent.futures
import json
import subprocess
import sys
import time

import pytest

from corpus_cases import load_cases, problems

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
    assert set(report) == {"exercise", "passed", "error", "tests", "stdout"}
    assert [t["name"] for t in report["tests"]] == SIX_TESTS
    assert problems(case, report) == []
    assert process.returncode == (0 if report["passed"] else 1)
    # Startup (fork server + numpy) plus the time limit plus a small margin; the pool runs 4 at once.
    assert elapsed < TIMEOUT + 10


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

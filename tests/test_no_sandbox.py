"""Grading without bubblewrap (`--sandbox none`) works for every exercise where Python sits in a private folder.

Run as root without the sandbox, learners would run as `nobody`; with Python
installed where `nobody` cannot read it (pyenv under /root, say), every lazy
import of theirs (the standard library, numpy.random's bit generators) failed,
and so did every exercise taking a numpy.random.Generator.  The grader now runs
learners as root there and says so in its one warning line.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.checker.sandbox import Sandbox
from grader.checker.supervisor import Grader, Limits
from grader.exercise import load_all
from grader.track import reference_steps

ROOT = Path(__file__).resolve().parents[1]
NOBODY = 65534


def _nobody_can_list(folder):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.listdir(folder)
            os.write(write_end, b"y")
        finally:
            os._exit(0)
    os.close(write_end)
    answer = os.read(read_end, 1)
    os.close(read_end)
    os.waitpid(pid, 0)
    return answer == b"y"


STDLIB = os.path.dirname(os.__file__)
needs_private_python = pytest.mark.skipif(
    os.geteuid() != 0 or _nobody_can_list(STDLIB),
    reason="needs root and a Python whose standard library user nobody cannot read (e.g. pyenv under /root)")


@needs_private_python
def test_every_reference_passes_and_every_starter_fails_without_the_sandbox():
    """Every exercise's hidden tests and reference import what they need as the learner runs them here."""
    sandbox = Sandbox("none")
    try:
        assert sandbox.nobody_cannot_read is not None, "learners should run as root here"
        wrong = {}
        for exercise in load_all():
            grader = Grader(exercise.grading_spec(), Limits(time_limit=exercise.time_limit), sandbox,
                            earlier=reference_steps(exercise))
            reports = dict(grader.grade_all([("reference", exercise.solution), ("starter", exercise.starter)], 2))
            if not reports["reference"]["passed"] or reports["starter"]["passed"]:
                wrong[exercise.id] = {label: (report["error"], [t["message"] for t in report["tests"]])
                                      for label, report in reports.items()}
    finally:
        sandbox.close()
    assert not wrong, wrong


@needs_private_python
def test_validate_without_the_sandbox_warns_once_that_learners_run_as_root():
    done = subprocess.run([sys.executable, "-m", "grader", "validate", "generate", "--sandbox", "none"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 of 1 exercise(s) valid" in done.stdout
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, done.stderr
    assert "as root because user nobody cannot read" in warnings[0]


@needs_private_python
def test_check_of_a_generator_exercise_passes_without_the_sandbox():
    done = subprocess.run([sys.executable, "-m", "grader", "check", "generate", "exercises/generate/solution.py",
                           "--sandbox", "none"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7/7 tests passed" in done.stdout

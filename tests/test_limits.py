"""Resource limits of offline grading, on real processes and real cgroups: one memory budget per learner
(its processes, /tmp, /dev/shm and memfd files together), with a cgroup and without one, and time limits
that count CPU time, so a busy machine gives the verdicts an idle one gives."""

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from grader.checker.remote import Limits
from grader.checker.sandbox import Sandbox
from grader.checker.supervisor import Grader
from grader.core.engine import GradingSpec
from grader.exercise import EXERCISES_DIR

ROOT = Path(__file__).resolve().parents[1]
MEMORY_MB = 1024
# Beyond the learner's budget: the grader's own processes (checker, zygote) and what the other programs of a
# shared machine do meanwhile.  Without a budget per learner, these learners take about 3 GB.
MARGIN_MB = 400
FALLBACK_TMPFS_MB = 2 * 64  # without a cgroup, /tmp and /dev/shm are 64 MB tmpfs each, beside --memory

ONE_TEST = '''
    def test_once(f):
        """Runs once"""
        f()
'''
HOGS = {
    "forks": '''
        import os, time

        def f():
            for _ in range(4):
                if os.fork() == 0:
                    block = bytearray(800 * 1024 * 1024)
                    for i in range(0, len(block), 4096):
                        block[i] = 1
                    time.sleep(20)
                    os._exit(0)
            time.sleep(20)
    ''',
    "memfds": '''
        import os, time

        def f():
            files = [os.memfd_create(f"m{n}") for n in range(96)]
            for fd in files:
                for _ in range(30):
                    os.write(fd, b"x" * (1 << 20))
            time.sleep(20)
    ''',
    "tmp_and_shm": '''
        import os, time

        def f():
            for folder in (os.environ["TMPDIR"], "/dev/shm"):  # TMPDIR: /tmp, or /scratch for a checkout in /tmp
                for n in range(40):
                    with open(f"{folder}/file{n}", "wb") as file:
                        for _ in range(30):
                            file.write(b"x" * (1 << 20))
            time.sleep(20)
    ''',
}


def available_mb():
    with open("/proc/meminfo") as info:
        for line in info:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    raise AssertionError("no MemAvailable in /proc/meminfo")


def grade_watching_memory(sandbox, source):
    """The report, and by how many MB the host's available memory dropped at most while it was graded."""
    before = available_mb()
    lowest, done = [before], threading.Event()

    def sample():
        while not done.is_set():
            lowest[0] = min(lowest[0], available_mb())
            time.sleep(0.01)
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        spec = GradingSpec("example", "f", textwrap.dedent(ONE_TEST))
        report = Grader(spec, Limits(time_limit=10, memory_mb=MEMORY_MB), sandbox).grade(textwrap.dedent(source))
    finally:
        done.set()
        sampler.join()
    return report, before - lowest[0]


@pytest.fixture(scope="module", params=["bwrap", "none"])
def cgroup_sandbox(request):
    box = Sandbox(request.param)
    assert box.cgroups is not None, f"no cgroup for learners here: {box.no_cgroups}"
    yield box
    box.close()


@pytest.mark.parametrize("hog", sorted(HOGS))
def test_with_a_cgroup_all_of_a_learner_shares_one_budget_and_going_over_it_is_a_memory_verdict(cgroup_sandbox, hog):
    if hog == "tmp_and_shm" and cgroup_sandbox.mode == "none":
        pytest.skip("without bubblewrap /tmp is the host's, not the learner's own")
    report, dropped = grade_watching_memory(cgroup_sandbox, HOGS[hog])
    assert dropped <= MEMORY_MB + MARGIN_MB, f"the host lost {dropped} MB"
    [test] = report["tests"]
    assert test["status"] == "error"
    assert test["message"].startswith(f"Memory limit exceeded: your code used more than {MEMORY_MB} MB"), test
    assert time_ms(report) < 10_000  # stopped when the kernel killed it, not when its sleep ended


@pytest.fixture(scope="module")
def fallback_sandbox():
    warnings = []
    box = Sandbox("bwrap", warn=warnings.append, cgroups=False)
    assert box.cgroups is None
    assert warnings == ["warning: no cgroup for learners (not asked for, run as root for one): each learner is kept "
                        "to one process (no fork, no memfd) whose memory --memory bounds, "
                        "plus 64 MB each of /tmp and /dev/shm"]
    yield box
    box.close()


@pytest.mark.parametrize("hog, refused", [("forks", "BlockingIOError"), ("memfds", "PermissionError"),
                                          ("tmp_and_shm", "OSError")])
def test_without_a_cgroup_a_learner_is_one_process_with_no_memfd_and_small_files(fallback_sandbox, hog, refused):
    report, dropped = grade_watching_memory(fallback_sandbox, HOGS[hog])
    assert dropped <= MEMORY_MB + FALLBACK_TMPFS_MB + MARGIN_MB, f"the host lost {dropped} MB"
    [test] = report["tests"]
    assert test["status"] == "error" and refused in test["message"], test


def test_without_a_cgroup_threads_work_and_cpu_time_is_counted(fallback_sandbox):
    source = '''
        import threading, time

        def f():
            threads = [threading.Thread(target=lambda: None) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            end = time.process_time() + 30
            while time.process_time() < end:
                pass
    '''
    spec = GradingSpec("example", "f", textwrap.dedent(ONE_TEST))
    started = time.monotonic()
    report = Grader(spec, Limits(time_limit=1), fallback_sandbox).grade(textwrap.dedent(source))
    [test] = report["tests"]
    assert test["status"] == "timeout" and "1 s of CPU time" in test["message"], test
    assert time.monotonic() - started < 8  # the CPU time ran out, not the wall-clock backstop (3 * 1 + 5 s)


def test_a_learner_that_waits_is_stopped_once_by_the_wall_clock_backstop_and_later_tests_are_not_run(fallback_sandbox):
    """Sleeping uses no CPU time, so the wall-clock backstop (3 * 1 + 5 s) ends the first test; the tests after
    it are not run, as when the CPU time is used up, rather than each starting a learner that times out."""
    source = '''
        import time

        def f():
            time.sleep(60)
    '''
    tests = ONE_TEST + ONE_TEST.replace("test_once", "test_twice").replace("Runs once", "Runs twice")
    spec = GradingSpec("example", "f", textwrap.dedent(tests))
    started = time.monotonic()
    report = Grader(spec, Limits(time_limit=1), fallback_sandbox).grade(textwrap.dedent(source))
    first, second = report["tests"]
    assert first["status"] == "timeout" and "the wall-clock backstop ended it" in first["message"], first
    assert second == {**second, "status": "timeout", "message": "Not run: the limit of 1 s of CPU time for your code "
                      "was used up by earlier tests."}, second
    assert time.monotonic() - started < 12


def time_ms(report):
    return sum(test["duration_ms"] for test in report["tests"])


# -- time that is fair under load --

CHATTY = '''
import numpy as np


def sinusoidal_pe(seq_len, d_model):
    total = 0
    for i in range({work}):  # CPU time that a busy machine stretches
        total += i % 7
    for i in range(2000):
        print("position", i, "of", seq_len)
    position = np.arange(seq_len)[:, None]
    rates = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    table = np.zeros((seq_len, d_model))
    table[:, 0::2] = np.sin(position * rates)
    table[:, 1::2] = np.cos(position * rates)
    return table
'''
TIMEOUT = 2.5  # seconds of CPU time for a submission: several times what each one uses


def graded_records(folder, out):
    process = subprocess.run([sys.executable, "-m", "grader", "batch", "sinusoidal_pe", str(folder), "--out", str(out),
                              "--timeout", str(TIMEOUT), "--jobs", "2", "--force"],
                             capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert process.returncode == 0, process.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return {r["submission"]: (r["score"], [(t["name"], t["status"]) for t in r["tests"]]) for r in records}


def start_cpu_hogs():
    """Busy processes, two per core, at a higher priority than the grader: they win the CPU.

    Each is a session, so a scheduling group, of its own (as each learner is), with a nice value of -5.
    """
    hogs = []
    for n in range(2 * os.cpu_count()):
        code = (f"import os; os.sched_setaffinity(0, {{{n % os.cpu_count()}}})\n"
                "with open('/proc/self/autogroup', 'w') as group:\n    group.write('-5')\nwhile True: pass")
        hogs.append(subprocess.Popen([sys.executable, "-c", code], start_new_session=True))
    return hogs


def test_a_class_graded_on_a_busy_machine_gets_the_records_of_an_idle_one(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name, work in [("ada", 300_000), ("bob", 600_000), ("cyd", 900_000)]:
        (folder / f"{name}.py").write_text(CHATTY.format(work=work))
    (folder / "reference.py").write_text((EXERCISES_DIR / "sinusoidal_pe" / "solution.py").read_text())
    idle = graded_records(folder, tmp_path / "idle.jsonl")
    hogs = start_cpu_hogs()
    try:
        time.sleep(0.5)
        loaded = graded_records(folder, tmp_path / "loaded.jsonl")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert all(score == 6 for score, _ in idle.values()), idle
    assert loaded == idle

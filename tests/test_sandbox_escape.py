"""`python -m grader batch` against submissions that attack the machine doing the grading.

Three attacks from the corpus share a folder with four copies of the reference:
tamper_kill_processes.py (writes /proc/PID/mem, SIGSTOPs and SIGKILLs its parent,
pid 1 and the grading), tamper_forked_daemon.py (a double-forked daemon that
later rewrites results files and kills the grading) and tamper_write_all_fds.py
(junk written to every inherited file descriptor).  The batch must still finish
normally with the right verdicts, and once it has exited nothing it started may
live on or change anything: the results file stays as it was, no learner or
grader process remains, no /tmp/grader-* folder is left behind.  A process counts
as the batch's when it was seen below the batch while it ran, has the submissions
folder on its command line, or is a learner process (grader.learner /
grader-learner) that appeared meanwhile and is not under another live grading run.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus" / "sinusoidal_pe"
REFERENCE = ROOT / "exercises" / "sinusoidal_pe" / "solution.py"
ATTACKS = ["tamper_kill_processes.py", "tamper_forked_daemon.py", "tamper_write_all_fds.py"]
HONEST = [f"honest_{i}.py" for i in range(1, 5)]
SETTLE_SECONDS = 5  # the daemon strikes 3 s after it is forked; give it time to try after the batch is gone
LEARNER_MARKERS = ("grader.learner", "grader-learner")


def processes():
    """{pid: (ppid, args)} of every process `ps` shows, except this one and `ps` itself."""
    listing = subprocess.run(["ps", "-eo", "pid,ppid,args"], capture_output=True, text=True, timeout=30).stdout
    found = {}
    for line in listing.splitlines()[1:]:
        fields = line.split(None, 2)
        if len(fields) == 3 and fields[0].isdigit() and fields[1].isdigit():
            found[int(fields[0])] = (int(fields[1]), fields[2])
    found.pop(os.getpid(), None)
    return {pid: entry for pid, entry in found.items() if not entry[1].startswith("ps -eo")}


def descendants(table, roots):
    """`roots` and every process below them in `table`."""
    found = set(roots)
    while True:
        children = {pid for pid, (ppid, _) in table.items() if ppid in found} - found
        if not children:
            return found
        found |= children


def in_a_live_grading_run(table, pid):
    """Whether an ancestor of `pid` is a running `python -m grader ...` (another run, ours has exited)."""
    seen = set()
    pid = table[pid][0]
    while pid in table and pid not in seen:
        seen.add(pid)
        if " -m grader " in f" {table[pid][1]} ":
            return True
        pid = table[pid][0]
    return False


def leftovers(before, started, folder):
    """{pid: args} of processes of our batch still alive after it exited: those seen below it while it ran,
    new ones with the submissions folder on their command line, and new orphaned learner processes."""
    table = processes()
    found = {}
    for pid, (_, args) in table.items():
        if pid in before:
            continue
        if (started.get(pid) == args or str(folder) in args
                or (any(m in args for m in LEARNER_MARKERS) and not in_a_live_grading_run(table, pid))):
            found[pid] = args
    return {pid: table[pid][1] for pid in descendants(table, found)}


def run_batch(folder, out):
    """Run the batch (at most 300 s); return (returncode, stderr, {pid: args} of everything seen below it)."""
    started = {}
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        batch = subprocess.Popen([sys.executable, "-m", "grader", "batch", "sinusoidal_pe", str(folder),
                                  "--out", str(out), "--timeout", "3", "--jobs", "2"],
                                 cwd=ROOT, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while True:
            table = processes()
            started.update((pid, table[pid][1]) for pid in descendants(table, {batch.pid}) if pid in table)
            try:
                batch.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() > deadline:
                    batch.kill()
                    batch.wait()
                    pytest.fail("the batch did not finish within 300 s")
        stderr.seek(0)
        return batch.returncode, stderr.read().decode("utf-8", "replace"), started


def grader_temp_folders():
    tops = {Path("/tmp"), Path(tempfile.gettempdir())}
    return {path for top in tops for path in top.glob("grader-*")}


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """Run the batch on the attacks plus honest copies, then watch what happens after it exits."""
    base = tmp_path_factory.mktemp("escape")
    folder = base / "submissions"
    folder.mkdir()
    for name in ATTACKS:
        shutil.copy(CORPUS / name, folder / name)
    for name in HONEST:
        shutil.copy(REFERENCE, folder / name)
    out = base / "results.jsonl"

    processes_before = set(processes())
    folders_before = grader_temp_folders()
    returncode, stderr, started = run_batch(folder, out)
    at_exit = out.read_bytes() if out.exists() else None
    time.sleep(SETTLE_SECONDS)
    after = {
        "results": out.read_bytes() if out.exists() else None,
        "processes": leftovers(processes_before, started, folder),
        "folders": grader_temp_folders() - folders_before,
    }
    yield (returncode, stderr), at_exit, after

    # Whatever the run left behind was started by this test: stop it so it cannot disturb later tests.
    for pid in after["processes"]:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def records(results):
    assert results is not None, "the batch wrote no results file"
    return {r["submission"]: r for r in map(json.loads, results.decode("utf-8").splitlines())}


def test_the_batch_finishes_normally(attacked):
    (returncode, stderr), at_exit, _ = attacked
    assert returncode == 0, stderr[-3000:]
    assert at_exit is not None, "no results file"
    assert sorted(records(at_exit)) == sorted(ATTACKS + HONEST)


def test_honest_submissions_pass(attacked):
    _, at_exit, _ = attacked
    graded = records(at_exit)
    for name in HONEST:
        assert graded[name]["passed"] is True, (name, graded[name].get("error"), graded[name].get("tests"))


def test_attacks_do_not_pass(attacked):
    _, at_exit, _ = attacked
    graded = records(at_exit)
    for name in ATTACKS:
        assert graded[name]["passed"] is False, (name, graded[name].get("tests"))


def test_results_file_unchanged_after_the_batch(attacked):
    _, at_exit, after = attacked
    assert after["results"] == at_exit, "the results file changed after the batch exited"


def test_no_process_outlives_the_batch(attacked):
    _, _, after = attacked
    assert after["processes"] == {}, f"still running {SETTLE_SECONDS} s after the batch exited"


def test_no_temporary_folder_left_behind(attacked):
    _, _, after = attacked
    assert after["folders"] == set(), "grader temporary folders left behind"

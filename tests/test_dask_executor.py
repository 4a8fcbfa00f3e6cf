"""`python -m grader batch --executor dask://HOST:PORT`: a real Dask cluster (LocalCluster, two worker processes)
grades like this machine, an interrupted run included; so does a scheduler and workers started with `dask
scheduler` / `dask worker` away from this project (the client ships them the grader); workers close their
sandboxes when they exit; bad addresses, an unreachable scheduler, a worker running another grader and one
without bubblewrap (under --sandbox bwrap) are refused with one line, exit 2."""

import gc
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import dask
import psutil
import pytest
from distributed import Client, LocalCluster

from grader.checker.executors import fingerprint, workers_that_cannot_run
from grader.checker.sandbox import Sandbox
from test_batch import batch, copy_cases, read_jsonl
from test_earlier_steps import ATTRIBUTED, copy_catalogue, write_submissions

ROOT = Path(__file__).resolve().parents[1]
# Correct, wrong, crashing, looping and hostile submissions.
FOLDER_CASES = ["correct_vectorised.py", "correct_with_prints.py", "wrong_shape.py", "returns_nan.py",
                "exception_custom_index_error.py", "syntax_error.py", "missing_function.py", "loop_in_function.py",
                "os_exit.py", "tamper_kill_processes.py", "tamper_find_hidden_tests.py", "fake_report_printed.py"]
TIMEOUT = ["--timeout", "2"]


def comparable(path):
    """The records of a results file by submission, without what legitimately differs between runs:
    timings, when each was graded, and whether a timeout came from the CPU limit or
    from the wall-clock backstop (a loaded machine, e.g. the browser tests beside this one, can reach the backstop
    first)."""
    records = {}
    for record in read_jsonl(path):
        del record["graded_at"]
        del record["results_sha256"]  # a checksum of the record: it covers the timeout's message
        for test in record["tests"]:
            del test["duration_ms"]
            if test["status"] == "timeout":
                test["message"] = test["message"].split(" (the wall-clock backstop")[0]
        records[record["submission"]] = record
    return records


def dask_address(cluster):
    return cluster.scheduler_address.replace("tcp://", "dask://")


def worker_children(cluster):
    """{worker process id: the processes it started (its sandbox)}."""
    with Client(cluster) as client:
        workers = client.run(os.getpid).values()
    return {pid: psutil.Process(pid).children(recursive=True) for pid in workers}


def has_sandbox(processes):
    return any(p.name() == "bwrap" for p in processes)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return copy_cases(tmp_path_factory.mktemp("class"), {name: name for name in FOLDER_CASES})


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes; once closed, nothing they started (their sandboxes) is left running."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        yield cluster
        started = [process for processes in worker_children(cluster).values() for process in processes]
    assert started, "the workers started no sandbox"
    _, alive = psutil.wait_procs(started, timeout=10)
    assert alive == [], "a worker's sandbox outlived it"


@pytest.fixture(scope="module")
def local_records(folder, tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "results.jsonl"
    process = batch("sinusoidal_pe", str(folder), "--out", str(out), *TIMEOUT, "--jobs", "2")
    assert process.returncode == 0, process.stderr
    return comparable(out)


def test_a_dask_cluster_grades_like_this_machine(folder, cluster, local_records, tmp_path):
    out = tmp_path / "results.jsonl"
    process = batch("sinusoidal_pe", str(folder), "--out", str(out), *TIMEOUT, "--executor", dask_address(cluster))
    assert process.returncode == 0, process.stderr
    assert comparable(out) == local_records
    assert sorted(local_records) == sorted(FOLDER_CASES)
    assert local_records["correct_vectorised.py"]["passed"] and not local_records["wrong_shape.py"]["passed"]
    assert "WITHOUT a sandbox" not in process.stderr
    # Each worker graded in a sandbox of its own, kept for the next task.
    children = worker_children(cluster)
    assert len(children) == 2 and all(has_sandbox(processes) for processes in children.values())


def test_a_dask_cluster_grades_a_step_with_the_references_of_the_steps_it_uses(cluster, tmp_path):
    catalogue = copy_catalogue(tmp_path / "catalogue")
    out = tmp_path / "results.jsonl"
    process = batch(str(catalogue / "attention"), str(write_submissions(tmp_path / "class")), "--out", str(out),
                    "--executor", dask_address(cluster))
    assert process.returncode == 0, process.stderr
    records = {record["submission"]: record for record in read_jsonl(out)}
    assert records["new_style.py"]["passed"] and records["old_style.py"]["passed"]
    assert ATTRIBUTED in records["wrong_call.py"]["tests"][0]["message"]


def start_cluster(folder, workers, path=None):
    """A `dask scheduler` and `dask worker --nworkers WORKERS` started in `folder`, whose environment has no
    PYTHONPATH (and PATH `path` for the workers, if given): nothing there can import this project.
    Returns (address, processes)."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    scheduler_file = folder / "scheduler.json"
    python = os.path.realpath(sys.executable)
    scheduler = subprocess.Popen([python, "-m", "distributed.cli.dask_scheduler", "--port", "0",
                                  "--dashboard-address", ":0", "--scheduler-file", str(scheduler_file)],
                                 cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not scheduler_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    worker = subprocess.Popen([python, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file),
                               "--nworkers", str(workers), "--nthreads", "1", "--local-directory", str(folder)],
                              cwd=folder, env={**env, "PATH": path or env["PATH"]},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with Client(scheduler_file=str(scheduler_file), set_as_default=False) as client:
        client.wait_for_workers(workers, timeout=60)
        address = client.scheduler.address.replace("tcp://", "dask://")
    return address, [worker, scheduler]


def stop_cluster(processes):
    for process in processes:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def bare_cluster(tmp_path_factory):
    address, processes = start_cluster(tmp_path_factory.mktemp("bare"), workers=2)
    yield address
    stop_cluster(processes)


def test_workers_without_this_project_grade_with_the_grader_the_client_ships(folder, bare_cluster, local_records,
                                                                             tmp_path):
    out = tmp_path / "results.jsonl"
    process = batch("sinusoidal_pe", str(folder), "--out", str(out), *TIMEOUT, "--executor", bare_cluster)
    assert process.returncode == 0, process.stderr
    assert comparable(out) == local_records
    with Client(bare_cluster.replace("dask://", "tcp://"), set_as_default=False) as client:
        loaded = client.run(lambda: (sys.modules["grader"].__file__, sys.path, os.getcwd()))
    assert len(loaded) == 2
    for grader_file, path, cwd in loaded.values():
        # The grader they ran is the shipped one, unpacked in their folder: the project is nowhere on their path.
        assert Path(grader_file).parents[1].name == f"grader-{fingerprint()['grader code']}"
        assert not Path(grader_file).is_relative_to(ROOT) and not Path(cwd).is_relative_to(ROOT)
        assert not any(Path(entry).resolve().is_relative_to(ROOT) for entry in path if entry)


def test_a_worker_without_bubblewrap_is_named(tmp_path):
    """Under --sandbox bwrap the batch stops naming it; under auto it grades with the warning local grading gives."""
    folder = copy_cases(tmp_path / "class", {"a.py": "correct_vectorised.py"})
    address, processes = start_cluster(tmp_path, workers=1, path=str(tmp_path / "no-programs"))
    try:
        required = batch("sinusoidal_pe", str(folder), "--out", str(tmp_path / "r1.jsonl"), "--executor", address,
                         "--sandbox", "bwrap")
        fallback = batch("sinusoidal_pe", str(folder), "--out", str(tmp_path / "r2.jsonl"), "--executor", address)
    finally:
        stop_cluster(processes)
    assert required.returncode == 2
    [line] = [line for line in required.stderr.splitlines() if line.startswith("error:")]
    assert line.startswith("error: worker tcp://") and line.endswith(
        ": bubblewrap sandbox unavailable: bubblewrap (bwrap) is not installed; install bubblewrap (e.g. "
        "`apt-get install bubblewrap`) to run learner code in a sandbox, or choose --sandbox none")
    assert fallback.returncode == 0, fallback.stderr
    assert "grades WITHOUT a sandbox (bubblewrap does not work there)" in fallback.stderr
    assert read_jsonl(tmp_path / "r2.jsonl")[0]["passed"]


def test_a_worker_with_another_python_or_numpy_is_named(bare_cluster):
    """From the versions the workers report, one given another numpy and the other another Python."""
    with Client(bare_cluster.replace("dask://", "tcp://"), set_as_default=False) as client:
        versions = client.get_versions(check=False)
    first, second = sorted(versions["workers"])
    assert workers_that_cannot_run(versions, fingerprint()) == []
    versions["workers"][first]["packages"]["numpy"] = "1.26.4"
    versions["workers"][second]["packages"]["python"] = "3.12.1.final.0"
    here = fingerprint()
    assert workers_that_cannot_run(versions, here) == [
        f"worker {first} cannot run this grader (numpy 1.26.4 there, {here['numpy']} here); give it the same "
        "Python and the packages of requirements.txt",
        f"worker {second} cannot run this grader (Python 3.12 there, {here['Python']} here); give it the same "
        "Python and the packages of requirements.txt"]


def test_an_interrupted_dask_run_resumes_to_the_same_records(folder, cluster, local_records, tmp_path):
    out = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "grader", "batch", "sinusoidal_pe", str(folder), "--out", str(out), *TIMEOUT,
               "--executor", dask_address(cluster)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 2):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    first = read_jsonl(out)
    assert 2 <= len(first) < len(FOLDER_CASES)

    resumed = batch("sinusoidal_pe", str(folder), "--out", str(out), *TIMEOUT, "--executor", dask_address(cluster))
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(first)} of {len(FOLDER_CASES)} already graded" in resumed.stderr
    assert read_jsonl(out)[:len(first)] == first
    assert comparable(out) == local_records


@pytest.mark.parametrize("value", ["dask://host", "tcp://127.0.0.1:8786", "dask://host:99999"])
def test_an_executor_that_is_not_one_is_a_usage_error(value, tmp_path):
    process = batch("sinusoidal_pe", str(tmp_path), "--executor", value)
    assert process.returncode == 2
    assert process.stderr.splitlines()[-1].startswith("python -m grader batch: error: argument --executor: ")
    assert "Traceback" not in process.stderr


def test_an_unreachable_scheduler_is_an_error_within_the_connect_timeout(tmp_path):
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    folder = copy_cases(tmp_path / "class", {"a.py": "correct_vectorised.py"})
    out = tmp_path / "results.jsonl"
    started = time.monotonic()
    process = batch("sinusoidal_pe", str(folder), "--out", str(out), "--executor", f"dask://127.0.0.1:{port}",
                    env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert time.monotonic() - started < 30
    assert process.returncode == 2
    assert process.stderr.splitlines() == [
        f"error: dask://127.0.0.1:{port}: cannot reach the Dask scheduler within 2s "
        f"(Timed out trying to connect to tcp://127.0.0.1:{port} after 2 s)"]
    assert not out.exists()


def test_a_worker_running_another_grader_is_refused(cluster, tmp_path):
    """The workers have loaded the original grader (a batch ran); the client runs an edited copy, which
    workers cannot load without restarting."""
    edited = tmp_path / "edited"
    shutil.copytree(ROOT / "grader", edited / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    with open(edited / "grader" / "core" / "checks.py", "a") as checks:
        checks.write("# an edit the workers do not have\n")
    folder = copy_cases(tmp_path / "class", {"a.py": "correct_vectorised.py"})
    first = batch("sinusoidal_pe", str(folder), "--out", str(tmp_path / "first.jsonl"),
                  "--executor", dask_address(cluster))
    assert first.returncode == 0, first.stderr
    out = tmp_path / "results.jsonl"
    process = batch(str(ROOT / "exercises" / "sinusoidal_pe"), str(folder), "--out", str(out),
                    "--executor", dask_address(cluster), cwd=edited)
    assert process.returncode == 2
    [line] = [line for line in process.stderr.splitlines() if line.startswith("error:")]
    assert line.startswith(f"error: {dask_address(cluster)}: worker tcp://")
    assert " already runs another grader, loaded from " in line and " before this batch (grader code " in line
    assert line.endswith(" here); restart it to load this one")
    assert not out.exists()  # refused on connecting: nothing graded, nothing recorded


def test_starting_a_sandbox_closes_no_descriptor_twice():
    """The cause of Dask batches aborting with EBADF: the sandbox closed its socket's descriptor by number, and
    the socket object closed that number again when collected, by then another thread's file (a Dask worker's),
    which that thread later closed while it was a checker's events pipe.  A socket closed behind its object's
    back warns when collected."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        Sandbox("auto").close()
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []


HOSTILE_CASES = ["os_exit.py", "sys_exit.py", "deep_recursion.py", "loop_in_function.py", "tamper_kill_processes.py",
                 "exception_unprintable.py", "correct_vectorised.py"]


def test_hostile_submissions_never_abort_a_dask_batch(tmp_path):
    """Run after run, each time on new workers that start their sandboxes while grading (when the descriptor
    closed twice hit a checker's pipe), the batch finishes and grades alike."""
    folder = copy_cases(tmp_path / "class", {name: name for name in HOSTILE_CASES})
    runs = []
    for run in range(3):
        out = tmp_path / f"results{run}.jsonl"
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            process = batch("sinusoidal_pe", str(folder), "--out", str(out), *TIMEOUT,
                            "--executor", dask_address(cluster))
        assert process.returncode == 0, process.stderr
        assert "failed" not in process.stderr, process.stderr
        runs.append(comparable(out))
    assert runs[0] == runs[1] == runs[2]
    assert sorted(runs[0]) == sorted(HOSTILE_CASES) and runs[0]["correct_vectorised.py"]["passed"]


def busy_worker(client, besides=()):
    """The address of the worker running a task, other than `besides`, once there is one."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for worker, tasks in client.processing().items():
            if tasks and worker not in besides:
                return worker
        time.sleep(0.1)
    raise AssertionError("no worker took the task")


def test_a_task_whose_worker_dies_is_sent_again_then_recorded_as_a_grading_failure(tmp_path):
    """Dask gives up on a task whose worker died (at once here: allowed-failures 0); the batch sends it once
    more, and when that worker dies too, the submission's record says grading failed and why."""
    folder = copy_cases(tmp_path / "class", {"a.py": "loop_in_function.py"})
    out = tmp_path / "results.jsonl"
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        command = [sys.executable, "-m", "grader", "batch", "sinusoidal_pe", str(folder), "--out", str(out),
                   "--timeout", "60", "--executor", dask_address(cluster)]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        killed = []
        for _ in range(2):
            worker = busy_worker(client, killed)
            pid = client.run(os.getpid, workers=[worker])[worker]
            time.sleep(1)  # it is grading
            os.kill(pid, signal.SIGKILL)
            killed.append(worker)
        stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert "grading a submission failed (KilledWorker: " in stderr and "sending it once more" in stderr
    [record] = read_jsonl(out)
    assert record["score"] == 0 and record["error"].startswith(
        "Grading failed on the Dask cluster, not because of your code (KilledWorker: ")
    assert all(t["status"] == "error" for t in record["tests"])

"""Batch grading throughput, against the in-process floor measured in the same run.

Floor: the hidden tests run directly in this process against each submission
(`grader.core.engine.grade`: no processes, no sandbox, no protection), one after
another.  Measured: `python -m grader batch` as an instructor runs it (the
command's own start-up included), with the bubblewrap sandbox and without
(`--sandbox none`), with one job and with one job per core.  Each ratio is
against the floor; the target is at least 0.5 for the sandbox with one job per
core, and the one-job ratio shows the cost per submission on a single core.
With --dask, also through `--executor dask://` to a Dask LocalCluster on this
machine (one worker process per core, processes=True), and when a cluster pays
off: each of `batch --jobs CORES` and the Dask run is timed on 1 submission and
on COUNT, each Dask run on a fresh cluster (workers start their sandboxes on
their first task, as after `dask worker`; starting the cluster is not timed),
which fits time(n) = fixed + n * per_submission.  The Dask fixed cost is the
client's connection, shipping the grader and the first task; a cluster of M
machines like this one grades n submissions in fixed_dask + n * per_dask / M
seconds against fixed_local + n * per_local here, so it pays off above
n* = (fixed_dask - fixed_local) / (per_local - per_dask / M), printed for a few M
(assuming the scheduler and the client keep up, which they do far beyond these rates).

    python benchmarks/batch_throughput.py [--count 200] [--dask]
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.engine import grade, load_tests  # noqa: E402
from grader.exercise import load_exercise  # noqa: E402

EXERCISE = "sinusoidal_pe"
MACHINES = (1, 2, 4, 8)   # cluster sizes the break-even class size is given for
SUBMISSIONS = [ROOT / "tests" / "corpus" / EXERCISE / name for name in
               ("correct_vectorised.py", "correct_loops_math.py", "wrong_shape.py", "returns_nan.py")]


def in_process_rate(files):
    spec = load_exercise(EXERCISE).grading_spec()
    load_tests(spec)  # warm: the first import of the tests is not part of grading
    started = time.perf_counter()
    for path in files:
        grade(spec, path.read_text())
    return len(files) / (time.perf_counter() - started)


def batch_seconds(folder, out, count, *options):
    """Wall-clock seconds of `python -m grader batch` on `folder` (`count` submissions)."""
    started = time.perf_counter()
    process = subprocess.run([sys.executable, "-m", "grader", "batch", EXERCISE, str(folder), "--out", str(out),
                              *options], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    graded = len(out.read_text().splitlines()) if out.exists() else 0
    if process.returncode != 0 or graded != count:
        sys.exit(f"batch {' '.join(options)} failed ({graded}/{count} graded):\n{process.stderr}")
    out.unlink()
    return seconds


def dask_seconds(folder, out, count, workers):
    """`batch_seconds` through a fresh LocalCluster of `workers` worker processes (its start not timed)."""
    from distributed import LocalCluster
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        return batch_seconds(folder, out, count, "--executor", address, "--sandbox", "bwrap")


def fixed_and_per_submission(one, many, count):
    """(fixed, per submission) seconds of the line through (1, one) and (count, many)."""
    per = (many - one) / (count - 1)
    return one - per, per


def break_even(local, dask, machines):
    """The class size above which `machines` Dask machines like this one beat this machine, or None."""
    (fixed_local, per_local), (fixed_dask, per_dask) = local, dask
    gain = per_local - per_dask / machines  # seconds saved per submission
    return max(1, math.ceil((fixed_dask - fixed_local) / gain)) if gain > 0 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=200, help="submissions to grade per mode (default 200)")
    parser.add_argument("--dask", action="store_true", help="also grade on a Dask LocalCluster of this machine")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        for i in range(args.count):
            shutil.copy(SUBMISSIONS[i % len(SUBMISSIONS)], folder / f"learner{i:05d}.py")
        files = sorted(folder.glob("*.py"))

        one = Path(tmp) / "one"
        one.mkdir()
        shutil.copy(files[0], one / files[0].name)

        floor = in_process_rate(files)
        rows = [("in-process floor (no processes, no sandbox)", floor)]
        for sandbox in ("bwrap", "none"):
            for jobs in sorted({1, cores}):
                out = Path(tmp) / "results.jsonl"
                seconds = batch_seconds(folder, out, args.count, "--sandbox", sandbox, "--jobs", str(jobs))
                rows.append((f"batch --sandbox {sandbox} --jobs {jobs}", args.count / seconds))
                if (sandbox, jobs) == ("bwrap", cores):
                    local = fixed_and_per_submission(batch_seconds(one, out, 1, "--sandbox", sandbox, "--jobs",
                                                                   str(jobs)), seconds, args.count)
        if args.dask:
            out = Path(tmp) / "results-dask.jsonl"
            seconds = dask_seconds(folder, out, args.count, cores)
            rows.append((f"batch --executor dask:// ({cores} worker processes)", args.count / seconds))
            dask = fixed_and_per_submission(dask_seconds(one, out, 1, cores), seconds, args.count)

    print(f"{args.count} submissions of {EXERCISE}, {cores} core(s)")
    print(f"{'mode':<52} {'submissions/s':>14} {'vs floor':>9}")
    for name, rate in rows:
        print(f"{name:<52} {rate:>14.1f} {rate / floor:>9.2f}")
    figures = {name: round(rate, 2) for name, rate in rows}
    if args.dask:
        print(f"time(n) = fixed + n * per submission, from 1 and {args.count} submissions:")
        for name, (fixed, per) in (("local --jobs %d" % cores, local), ("dask", dask)):
            print(f"  {name:<16} fixed {fixed:6.2f} s   per submission {per:6.3f} s")
        print("a cluster of M machines like this one pays off above n* = (fixed_dask - fixed_local) / "
              "(per_local - per_dask / M) submissions:")
        for machines in MACHINES:
            n = break_even(local, dask, machines)
            print(f"  M = {machines}: " + (f"n* = {n}" if n else "never (no gain per submission)"))
            figures[f"break-even submissions, {machines} machine(s)"] = n
        figures.update({"fixed local s": round(local[0], 2), "per submission local s": round(local[1], 4),
                        "fixed dask s": round(dask[0], 2), "per submission dask s": round(dask[1], 4)})
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

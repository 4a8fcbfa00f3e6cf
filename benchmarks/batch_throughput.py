"""Batch grading throughput, against the in-process floor measured in the same run.

Floor: the hidden tests run directly in this process against each submission
(`grader.core.engine.grade`: no processes, no sandbox, no protection), one after
another.  Measured: `python -m grader batch` as an instructor runs it (the
command's own start-up included), with the bubblewrap sandbox and without
(`--sandbox none`), with one job and with one job per core.  Each ratio is
against the floor; the target is at least 0.5 for the sandbox with one job per
core, and the one-job ratio shows the cost per submission on a single core.
With --dask, also through `--executor dask://` to a Dask LocalCluster on this
machine (one worker process per core): what the scheduler and the transport
cost against the local executor, before more machines add throughput.

    python benchmarks/batch_throughput.py [--count 200] [--dask]
"""

import argparse
import json
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
SUBMISSIONS = [ROOT / "tests" / "corpus" / EXERCISE / name for name in
               ("correct_vectorised.py", "correct_loops_math.py", "wrong_shape.py", "returns_nan.py")]


def in_process_rate(files):
    spec = load_exercise(EXERCISE).grading_spec()
    load_tests(spec)  # warm: the first import of the tests is not part of grading
    started = time.perf_counter()
    for path in files:
        grade(spec, path.read_text())
    return len(files) / (time.perf_counter() - started)


def batch_rate(folder, out, count, *options):
    started = time.perf_counter()
    process = subprocess.run([sys.executable, "-m", "grader", "batch", EXERCISE, str(folder), "--out", str(out),
                              *options], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    graded = len(out.read_text().splitlines()) if out.exists() else 0
    if process.returncode != 0 or graded != count:
        sys.exit(f"batch {' '.join(options)} failed ({graded}/{count} graded):\n{process.stderr}")
    return count / seconds


def dask_rate(folder, out, count, workers):
    from distributed import LocalCluster
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        return batch_rate(folder, out, count, "--executor", address, "--sandbox", "bwrap")


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

        floor = in_process_rate(files)
        rows = [("in-process floor (no processes, no sandbox)", floor)]
        for sandbox in ("bwrap", "none"):
            for jobs in sorted({1, cores}):
                out = Path(tmp) / f"results-{sandbox}-{jobs}.jsonl"
                rows.append((f"batch --sandbox {sandbox} --jobs {jobs}",
                             batch_rate(folder, out, args.count, "--sandbox", sandbox, "--jobs", str(jobs))))
        if args.dask:
            rows.append((f"batch --executor dask:// ({cores} workers)",
                         dask_rate(folder, Path(tmp) / "results-dask.jsonl", args.count, cores)))

    print(f"{args.count} submissions of {EXERCISE}, {cores} core(s)")
    print(f"{'mode':<46} {'submissions/s':>14} {'vs floor':>9}")
    for name, rate in rows:
        print(f"{name:<46} {rate:>14.1f} {rate / floor:>9.2f}")
    print(json.dumps({name: round(rate, 2) for name, rate in rows}))


if __name__ == "__main__":
    main()

"""Measure batch grading throughput against a baseline measured in the same run.

Baseline: one `python -m grader check` process per submission (a fresh
interpreter and numpy import each time), run one after another.
Measured: `python -m grader batch` (children forked from a warm fork server),
with one job and with one job per core.

    python benchmarks/batch_throughput.py [--count 60]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBMISSION = ROOT / "tests" / "corpus" / "sinusoidal_pe" / "correct_vectorised.py"


def timed(command):
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=False, capture_output=True)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=60, help="submissions to grade (default 60)")
    parser.add_argument("--baseline-count", type=int, default=15,
                        help="submissions for the slow one-process-each baseline (default 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        for i in range(args.count):
            shutil.copy(SUBMISSION, folder / f"learner{i:04d}.py")

        baseline_files = sorted(folder.glob("*.py"))[:args.baseline_count]
        started = time.perf_counter()
        for path in baseline_files:
            subprocess.run([sys.executable, "-m", "grader", "check", "sinusoidal_pe", str(path), "--json"],
                           cwd=ROOT, capture_output=True, check=False)
        baseline_rate = len(baseline_files) / (time.perf_counter() - started)

        rows = [("one process per submission (check)", baseline_rate)]
        for jobs in sorted({1, os.cpu_count() or 1}):
            out = Path(tmp) / f"results-{jobs}.jsonl"
            seconds = timed([sys.executable, "-m", "grader", "batch", "sinusoidal_pe", str(folder),
                             "--out", str(out), "--jobs", str(jobs)])
            rows.append((f"batch, --jobs {jobs}", args.count / seconds))

    print(f"{'mode':<40} {'submissions/s':>14} {'vs baseline':>12}")
    for name, rate in rows:
        print(f"{name:<40} {rate:>14.1f} {rate / baseline_rate:>11.1f}x")


if __name__ == "__main__":
    main()

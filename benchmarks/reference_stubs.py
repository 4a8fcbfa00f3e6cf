"""What the references in scope cost offline, where they run in the checker behind data-only stubs.

For each exercise named (default: the steps 26, 27 and 35, which use the most earlier steps), with its
reference as the submission: `python -m grader check` as a learner runs it (the command's start-up
included, the median of --runs), and the learner's calls to the earlier steps per test (each a message to
the checker and its answer), counted by running the hidden tests against the sandboxed learner in this
process.

    python benchmarks/reference_stubs.py [--runs 5] [exercise ...]
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.checker.remote import RemoteLearner  # noqa: E402
from grader.checker.sandbox import Sandbox  # noqa: E402
from grader.cli import limits_from  # noqa: E402
from grader.core.engine import run_tests  # noqa: E402
from grader.exercise import EXERCISES_DIR, load_exercise  # noqa: E402
from grader.track import reference_steps  # noqa: E402

DEFAULT = ("transformer_block_backward", "gpt_loss_and_grads", "train_step")


def check_seconds(exercise_id, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "grader", "check", exercise_id,
                        str(EXERCISES_DIR / exercise_id / "solution.py")], cwd=ROOT, check=True,
                       capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def calls_per_test(exercise_id, sandbox):
    exercise = load_exercise(EXERCISES_DIR / exercise_id)
    spec = exercise.grading_spec()
    learner = RemoteLearner(spec.entry, exercise.solution, sandbox,
                            limits_from(argparse.Namespace(timeout=None, test_timeout=None, memory=1024), exercise),
                            reference_steps(exercise))
    counts, before = [], [0]

    def emit(event):
        if event["event"] == "test_start":
            before[0] = learner.references.calls
        elif event["event"] == "test":
            counts.append(learner.references.calls - before[0])
    report = run_tests(spec, learner, emit)
    assert report["passed"], report
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("exercises", nargs="*", default=DEFAULT)
    args = parser.parse_args()
    sandbox = Sandbox("auto")
    try:
        for exercise_id in args.exercises:
            counts = calls_per_test(exercise_id, sandbox)
            print(f"{exercise_id}: check {check_seconds(exercise_id, args.runs):.2f} s (median of {args.runs}); "
                  f"calls to earlier steps per test {counts} (total {sum(counts)})")
    finally:
        sandbox.close()


if __name__ == "__main__":
    main()

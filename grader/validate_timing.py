"""Where a validation's time went: the report's `time` lines (grader/validate.py).

The phases are timed by the validation; the split of each hidden test between its own code (expected
values, checks) and the reference's calls comes from the reference run (grader/reference_runner.py), which
times the reference's calls apart; mutants are ranked by the time their tests took.
"""

import contextlib
import time

SHOWN = 3  # slowest tests and mutants listed


class PhaseTimer:
    def __init__(self):
        self.seconds = {}  # phase -> wall-clock seconds, in the order they ran

    @contextlib.contextmanager
    def __call__(self, phase):
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[phase] = self.seconds.get(phase, 0.0) + time.perf_counter() - started


def time_lines(timer, reference_run, runs):
    """The report's lines: the phases, the slowest tests split into test code and reference, the slowest mutants."""
    lines = [f"  time: {sum(timer.seconds.values()):.2f} s: "
             + ", ".join(f"{phase} {seconds:.2f} s" for phase, seconds in timer.seconds.items())]
    slowest = sorted(reference_run.tests, key=lambda test: -test["seconds"])[:SHOWN]
    slowest.sort(key=reference_run.tests.index)  # in the order of tests.py
    if slowest:
        shown = "each test" if len(slowest) == len(reference_run.tests) else f"the {len(slowest)} slowest tests"
        lines.append(f"      {shown}, as test code + the reference's calls:")
        lines.extend(f"        {test['name']!r} (tests.py:{test['line']}): "
                     f"{test['seconds'] - test['learner_seconds']:.2f} s + {test['learner_seconds']:.2f} s"
                     for test in slowest)
    if reference_run.stopped and reference_run.running:
        running = reference_run.running
        lines.append(f"      the reference's run in one interpreter was {reference_run.stopped}, in test "
                     f"{running['name']!r} (tests.py:{running['line']})")
    mutants = sorted(((label, pair[0].seconds) for label, pair in runs.items() if label.endswith(".py")),
                     key=lambda mutant: -mutant[1])[:SHOWN]
    if mutants:
        lines.append("      slowest mutants, their tests' time (a timeout counts in full): "
                     + ", ".join(f"{label} {seconds:.2f} s" for label, seconds in mutants))
    return lines

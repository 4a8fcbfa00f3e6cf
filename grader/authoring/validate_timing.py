"""Where a validation's time went: the report's `time` lines (grader/authoring/validate.py).

The phases are timed by the validation; the split of each hidden test between its own code (expected
values, checks) and the reference's calls comes from the reference's first grading, whose engine times
the learner's calls apart (`learner_ms`); mutants are ranked by the time their tests took.
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


def time_lines(timer, runs, test_lines):
    """The report's lines: the phases, the slowest tests split into test code and reference, the slowest mutants.
    runs: validate's {label: [_Run]}; test_lines: {test name: line of its def in tests.py}."""
    lines = [f"  time: {sum(timer.seconds.values()):.2f} s: "
             + ", ".join(f"{phase} {seconds:.2f} s" for phase, seconds in timer.seconds.items())]
    tests = runs["reference"][0].tests if runs else []
    slowest = sorted(tests, key=lambda test: -test.duration_ms)[:SHOWN]
    slowest.sort(key=tests.index)  # in the order of tests.py
    if slowest:
        shown = "each test" if len(slowest) == len(tests) else f"the {len(slowest)} slowest tests"
        lines.append(f"      {shown}, as test code + the reference's calls:")
        lines.extend(f"        {test.name!r} (tests.py:{test_lines.get(test.name, '?')}): "
                     f"{(test.duration_ms - test.learner_ms) / 1000:.2f} s + {test.learner_ms / 1000:.2f} s"
                     for test in slowest)
    mutants = sorted(((label, pair[0].seconds) for label, pair in runs.items() if label.endswith(".py")),
                     key=lambda mutant: -mutant[1])[:SHOWN]
    if mutants:
        lines.append("      slowest mutants, their tests' time (a timeout counts in full): "
                     + ", ".join(f"{label} {seconds:.2f} s" for label, seconds in mutants))
    return lines

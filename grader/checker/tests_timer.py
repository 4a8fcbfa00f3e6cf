"""The hidden tests' own time in a checker process: their code, not the learner's, against a budget.

The learner's calls have their own limits (remote.py).  The tests' own code
(expected values, diagnoses) runs here, in the checker; without a bound a
slow or looping test would hold the grading until the supervisor's wall-clock
backstop and be reported as the learner's timeout.  `TestsTimer` gives all the
tests of one grading `seconds` of wall-clock time together, counted only
while their own code runs (the engine pauses it around each call into the
learner's code, see grader/core/engine.py `run_tests`), and raises
TestCodeStopped into the test that runs out, where its code is: the
traceback names the tests.py line.
"""

import signal
import time

from grader.core.engine import TestCodeStopped

RETRY_SECONDS = 0.1  # a test that swallows TestCodeStopped gets it again this soon


class TestsTimer:
    """A budget of wall-clock seconds for the tests' own code, enforced with SIGALRM (main thread only)."""

    def __init__(self, seconds):
        self.seconds = seconds
        self._left = seconds
        self._running_since = None  # while a test's own code runs
        signal.signal(signal.SIGALRM, self._ring)

    def used_up(self):
        return self._why() if self._left <= 0 else None

    def start(self):
        if self._left <= 0:
            raise TestCodeStopped(self._why())
        self._running_since = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, self._left)

    def stop(self):
        signal.setitimer(signal.ITIMER_REAL, 0)
        if self._running_since is not None:
            self._left -= time.monotonic() - self._running_since
            self._running_since = None

    pause, resume = stop, start

    def _ring(self, *_):
        if self._running_since is None:
            return  # it rang as the test's code was ending: that is the engine's time, not the test's
        self._left = 0
        signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
        raise TestCodeStopped(self._why())

    def _why(self):
        return (f"the exercise's own test code (not yours) ran for more than {self.seconds:g} s, "
                "its time for all the tests")

"""Grade submissions offline: a checker process per submission, a few at once, every read with a deadline.

The supervisor is the command line's own process.  It never runs hidden tests
or learner code: the hidden tests' names come from a short-lived child, each
submission is graded by a forked checker process (grader/checker/process.py)
whose learner processes come from the sandbox, and the report is built here
from the checker's events, so a checker that hangs, dies or sends nonsense
still yields a full report within the time limit plus a few seconds.
"""

import atexit
import gc
import io
import json
import os
import select
import signal
import sys
import time

from grader.checker.as_the_page import hide_folders
from grader.checker.process import checker_main
from grader.checker.remote import Limits, wall_backstop
from grader.checker.sandbox import Sandbox
from grader.core.engine import TestsError, compile_tests, load_tests, one_line
from grader.core.report import InvalidEvent, ReportBuilder
from grader.processes import die_with_parent

STARTUP_TIMEOUT = 30.0      # a checker loading the hidden tests, before the time limit starts
CHECKER_GRACE = 5.0         # the checker's own work on top of the learner's time limit
TESTS_LOAD_TIMEOUT = 10.0
MAX_EVENT_BYTES = 4 * 1024 * 1024


class Grader:
    """Grades submissions of one exercise with the given limits, in processes forked from this one.

    `earlier`: the EarlierStep of each step the exercise uses (grader/track.py `reference_steps`), whose
    entry functions the submission finds in scope.  `hidden`: folders the hidden tests cannot read, as on the
    page (the exercise's own, grader/checker/as_the_page.py).  With `authoring`, each grading also starts from
    a different state of the global generators (validate's determinism check).
    """

    def __init__(self, spec, limits, sandbox, test_names=None, earlier=(), authoring=False, hidden=()):
        self.spec, self.limits, self.sandbox, self.earlier = spec, limits, sandbox, tuple(earlier)
        # The author grading their own code: reports with each test's learner_ms and test_code_error
        # (core/report.py), the references in scope run beside it (checker/remote.py).
        self.authoring = authoring
        self.hidden = tuple(hidden)
        self.test_names = list(test_names) if test_names is not None else load_test_names(spec, hidden=hidden)
        try:
            compile_tests(spec)  # here, once, so that every forked checker finds the code compiled
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            pass  # each checker then reports it

    def grade(self, source):
        """The report for one submission's source."""
        for _, report in self.grade_all([(None, source)]):
            return report

    def grade_all(self, items, jobs=1):
        """Yield (key, report) for each (key, source) of `items`, as they finish, `jobs` at a time.

        Closing the generator (or an exception such as KeyboardInterrupt) kills what is still running.
        Should the sandbox stop, it is started again, and what was being graded is graded once more.
        """
        pending = iter(items)
        again = []  # (key, source) met a stopped sandbox: graded once more on a fresh one
        running = []
        try:
            while True:
                while len(running) < jobs:
                    retry = bool(again)
                    item = again.pop() if retry else next(pending, None)
                    if item is None:
                        break
                    if not self.sandbox.running():
                        self.sandbox.restart()
                    running.append(_CheckerRun(item[0], item[1], self, retry))
                if not running:
                    return
                wait = max(0.0, min(run.deadline for run in running) - time.monotonic())
                readable, _, _ = select.select(running, [], [], wait)
                for run in readable:
                    run.read()
                now = time.monotonic()
                for run in [r for r in running if r.finished or r.deadline <= now]:
                    running.remove(run)
                    report = run.report()
                    sandbox_stopped = run.sandbox_generation != self.sandbox.generation or not self.sandbox.running()
                    if sandbox_stopped and not run.retry:
                        again.append((run.key, run.source))
                    else:
                        yield run.key, report
        finally:
            for run in running:
                run.kill()


class _CheckerRun:
    """One submission being graded by a forked checker process."""

    def __init__(self, key, source, grader, retry=False):
        self.key, self.source, self.retry = key, source, retry
        self.sandbox_generation = grader.sandbox.generation
        self.time_limit = grader.limits.time_limit
        # The learner's wall-clock backstop and the tests' own time, one after the other at worst.
        self.allowed = wall_backstop(self.time_limit) + grader.limits.tests_own_seconds + CHECKER_GRACE
        self.test_names = grader.test_names
        self.builder = ReportBuilder(grader.spec.exercise_id, grader.test_names, grader.spec.points,
                                     grader.authoring)
        self.buffer = bytearray()
        self.finished = False
        self.interruption = None
        read_end, write_end = os.pipe()
        parent = os.getpid()
        # Frozen objects are never visited by the child's garbage collector, so their memory stays shared
        # instead of being copied page by page (it more than doubles the hidden tests' own running time).
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            checker_main(grader.spec, source, grader.limits, grader.sandbox, write_end, parent, grader.earlier,
                         grader.hidden, grader.authoring)
        gc.unfreeze()
        os.close(write_end)
        self.pid, self.fd = pid, read_end
        self.deadline = time.monotonic() + STARTUP_TIMEOUT

    def fileno(self):
        return self.fd

    def read(self):
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:
            data = b""
        if not data:
            self.finished = True
            return
        self.buffer += data
        while not self.finished and b"\n" in self.buffer:
            line, _, rest = bytes(self.buffer).partition(b"\n")
            self.buffer = bytearray(rest)
            self._add(line)
        if len(self.buffer) > MAX_EVENT_BYTES:
            self._stop("the checker sent an event that is too large")

    def _add(self, line):
        try:
            event = json.loads(line)
            if type(event) is dict and event.get("event") == "start":
                if event.get("tests") != self.test_names:
                    raise InvalidEvent("the hidden tests changed between loads")
                self.deadline = time.monotonic() + self.allowed
            self.builder.add(event)
        except (ValueError, RecursionError) as exc:  # InvalidEvent is a ValueError, like JSON errors
            self._stop(f"the checker sent an invalid event ({str(exc)[:200]})")
            return
        if self.builder.done:
            self.finished = True

    def _stop(self, why):
        self.interruption = ("error", f"Grading failed: {why}.")
        self.finished = True

    def report(self):
        interruption = self.interruption
        if interruption is None and not self.finished:
            interruption = ("timeout", "Time limit exceeded: the tests did not finish within "
                                       f"{self.allowed:g} s.")
        status = self.kill()
        if interruption is None and not self.builder.done:
            interruption = ("error", f"Grading failed: the checker process ended early ({_describe_status(status)}).")
        return self.builder.finish(interruption)

    def kill(self):
        """Kill the checker (its learner processes die with it); return its wait status."""
        if self.pid is None:
            return None
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        self.pid = None
        return status


def _describe_status(status):
    if status is None:
        return "unknown"
    if os.WIFSIGNALED(status):
        return signal.Signals(os.WTERMSIG(status)).name
    return f"exit code {os.WEXITSTATUS(status)}"


def load_test_names(spec, timeout=TESTS_LOAD_TIMEOUT, hidden=()):
    """The hidden tests' names, loaded in a time-limited child (that cannot read the `hidden` folders, as on
    the page); TestsError with one line if that fails."""
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        _load_tests_child(spec, write_end, parent, hidden)
    os.close(write_end)
    data, complete = bytearray(), False
    deadline = time.monotonic() + timeout
    try:
        while len(data) <= MAX_EVENT_BYTES:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([read_end], [], [], remaining)[0]:
                break
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                complete = True
                break
            data += chunk
    finally:
        os.close(read_end)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(pid, 0)
    where = spec.tests_filename
    if not complete:
        raise TestsError(f"{where}: the hidden tests did not finish loading within {timeout:g} s")
    try:
        answer = json.loads(data)
    except ValueError:
        raise TestsError(f"{where}: the hidden tests stopped the process while loading "
                         f"({_describe_status(status)})") from None
    if "error" in answer:
        raise TestsError(answer["error"])
    return answer["names"]


def _load_tests_child(spec, write_end, parent, hidden):
    try:
        die_with_parent()
        if os.getppid() != parent:
            os._exit(1)
        hide_folders(hidden)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        printed = sys.stdout = sys.stderr = _Printed(spec.tests_filename)
        try:
            names = [test.name for test in load_tests(spec)]
            answer = {"names": names}
            if printed.getvalue():
                first = printed.getvalue().strip().splitlines()[:1] or [""]
                where = f"{spec.tests_filename}:{printed.line}" if printed.line else spec.tests_filename
                answer = {"error": f"{where}: the hidden tests print while loading "
                                   f"({first[0][:80]!r}); hidden tests must not print"}
        except TestsError as exc:
            answer = {"error": str(exc)}
        except BaseException as exc:
            answer = {"error": f"{spec.tests_filename}: the hidden tests stop while loading: "
                               f"{type(exc).__name__}: {one_line(exc)}"}
        os.write(write_end, json.dumps(answer).encode())
    finally:
        os._exit(0)


class _Printed(io.StringIO):
    """What the hidden tests print while loading, and the line of tests.py that printed first."""

    def __init__(self, tests_filename):
        super().__init__()
        self.tests_filename, self.line = tests_filename, None

    def write(self, text):
        frame = sys._getframe(1)
        while self.line is None and frame is not None:
            if frame.f_code.co_filename == self.tests_filename:
                self.line = frame.f_lineno
            frame = frame.f_back
        return super().write(text)


_shared = {}


def shared_sandbox(mode="auto"):
    """A sandbox started on first use and kept for this process (closed at exit); warns once on stderr."""
    if mode not in _shared:
        _shared[mode] = Sandbox(mode, warn=lambda text: print(text, file=sys.stderr))
        atexit.register(_shared[mode].close)
    sandbox = _shared[mode]
    if not sandbox.running():
        sandbox.close()
        _shared[mode] = sandbox = Sandbox(mode, warn=lambda text: print(text, file=sys.stderr))
        atexit.register(sandbox.close)
    return sandbox


def grade_isolated(spec, source, limits, test_names=None, earlier=(), authoring=False):
    """Grade one submission with the process-wide sandbox; always returns a full report."""
    return Grader(spec, limits, shared_sandbox(), test_names, earlier, authoring).grade(source)


__all__ = ["Grader", "Limits", "grade_isolated", "load_test_names", "shared_sandbox"]

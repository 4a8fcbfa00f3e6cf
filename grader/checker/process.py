"""The checker process: runs the hidden tests of one submission and streams the events to its parent.

Forked by the supervisor for each submission.  It never runs learner code:
the tests call a RemoteLearner, whose learner process lives in the sandbox.
It dies with its parent, and its output (the hidden tests' own prints) goes
nowhere; only the events pipe carries anything back.
"""

import json
import os
import signal

from grader.checker.as_the_page import hide_folders, vary_process_state
from grader.checker.remote import RemoteLearner
from grader.checker.tests_timer import TestsTimer
from grader.core.engine import TestsError, one_line, run_tests
from grader.processes import close_fds_except, die_with_parent

def checker_main(spec, source, limits, sandbox, events_fd, parent_pid, earlier=(), hidden=(), authoring=False):
    """Entry point in the forked child; never returns.  `hidden` and, with `authoring`, the varied process state:
    see as_the_page.py; with `authoring` the references in scope run beside the code graded (remote.py)."""
    try:
        die_with_parent()
        if os.getppid() != parent_pid:
            os._exit(1)  # the parent died before we could ask to die with it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        close_fds_except({0, 1, 2, events_fd, sandbox.control.fileno()})
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)

        def emit(event):
            line = json.dumps(event, ensure_ascii=True, allow_nan=False) + "\n"
            os.write(events_fd, line.encode())

        learner = RemoteLearner(spec.entry, source, sandbox, limits, earlier, references_beside=authoring)
        learner.prepare()
        hide_folders(hidden)
        if authoring:
            vary_process_state()
        try:
            run_tests(spec, learner, emit, test_timer=TestsTimer(limits.tests_own_seconds))
        except TestsError as exc:
            emit({"event": "aborted", "error": f"The hidden tests failed to load: {exc}"})
        except BaseException as exc:
            emit({"event": "aborted", "error": f"The grader failed ({type(exc).__name__}: {one_line(exc)})."})
    finally:
        os._exit(0)

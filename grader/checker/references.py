"""The references of the earlier steps an exercise uses, run in the checker for the learner's code.

Offline the learner's code finds the used steps' entry functions in scope as
stubs (grader/learner/references.py) that send their arguments here as data;
`References.answer` runs the reference on them and says what it returned or
raised, as data too.  So no reference's code, constants or helpers ever enter
the learner's process, and a reference's time is the checker's, not the
learner's CPU time; it counts against the learner's wall-clock backstop, and
one call that would outlast it is stopped.

The references are loaded (once, on the first call) with the references they
use in turn in scope, as in the page.  What they print is dropped: the
learner's output is only what the learner's code prints.
"""

import contextlib
import io
import signal
import threading

from grader.core.checks import type_name
from grader.core.engine import LearnerStopped, builtin_bases, load_earlier, one_line
from grader.wire import Unencodable, WireError, decode_value, encode_value, generators


class ReferenceTimeout(BaseException):
    """Raised into a reference that ran past the learner's wall-clock backstop."""


class References:
    def __init__(self, earlier):
        self.steps = {step.exercise_id: step for step in earlier}
        self.calls = 0  # calls answered (benchmarks/ counts them)
        self._functions = None

    def answer(self, request, blobs, seconds):
        """(reply, blobs) for a learner's {"step", "args"} request; at most `seconds` of wall-clock time.

        ValueError for a request that is not valid data (the caller says the learner interfered);
        LearnerStopped when the reference runs out of time or does not load.
        """
        if type(request) is not dict or set(request) != {"step", "args"} or request["step"] not in self.steps:
            raise ValueError("it asked for an earlier step it was not given")
        try:
            args, kwargs = decode_value(request["args"], blobs)
        except (WireError, ValueError, TypeError) as exc:
            raise ValueError(f"its arguments to an earlier step are not valid data: {exc}") from None
        if type(args) is not list or type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
            raise ValueError("its arguments to an earlier step are not valid data")
        step = self.steps[request["step"]]
        function = self._load()[step.entry]
        self.calls += 1
        try:
            with _stopped_after(seconds, step), contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                result = function(*args, **kwargs)
            states = [generator.bit_generator.state for generator in generators((args, kwargs))]
            tree, result_blobs = encode_value([result, states])
        except (ReferenceTimeout, LearnerStopped):
            raise
        except Unencodable as exc:
            return {"earlier_raised": {"type": "TypeError", "bases": ["TypeError"],
                                       "message": f"{step.label} returned {exc}"}}, ()
        except Exception as exc:  # the reference refused these arguments: the learner's code hears of it
            return {"earlier_raised": {"type": type_name(exc), "bases": builtin_bases(exc),
                                       "message": one_line(exc)}}, ()
        return {"earlier_return": tree}, result_blobs

    def _load(self):
        if self._functions is None:
            functions, error = load_earlier(tuple(self.steps.values()))
            if error is not None:
                raise LearnerStopped("error", f"{error} The exercise has a bug; your code is not at fault.")
            self._functions = functions
        return self._functions


@contextlib.contextmanager
def _stopped_after(seconds, step):
    """Stop the reference after `seconds` of wall-clock time (SIGALRM; in the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(*_):
        raise ReferenceTimeout()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    except ReferenceTimeout:
        raise LearnerStopped("timeout", f"Time limit exceeded: your code's call to {step.label} was still running "
                                        "when the wall-clock time for your code ran out.") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

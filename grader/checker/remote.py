"""The learner's function as the hidden tests see it, when the learner's code runs in another process.

`RemoteLearner` asks the sandbox's zygote for a learner process, sends it the
submission, and turns each call from a test into a message: the arguments go
as data, the answer comes back as data (or as the learner's exception, which
is raised here with the same built-in type).  This side owns the clock: every
exchange has a deadline, also in the middle of a message, and the learner's
time for loading and for all calls together is capped by the time limit.  A
learner process that runs out of time, dies or sends anything malformed is
killed, the test gets its verdict, and the next call starts a fresh process.

What the learner's code prints arrives on a pipe that is drained while
waiting, so a chatty learner never blocks, and each piece goes to the test
that was running when it arrived.
"""

import codecs
import dataclasses
import errno
import json
import os
import select
import socket
import time

from grader.core.checks import fail
from grader.core.engine import LearnerStopped, learner_exception
from grader.core.report import MESSAGE_LIMIT, STDOUT_LIMIT
from grader.wire import FrameReader, Unencodable, WireError, decode_value, encode_value, frame

DEFAULT_MEMORY_MB = 1024
FILE_SIZE_LIMIT = 32 * 1024 * 1024   # cap on any file the learner's code writes (its /tmp holds 64 MB)
CPU_MARGIN = 5                  # seconds of CPU past the time limit before the kernel ends a learner
EXIT_STATUS_WAIT = 2.0          # how long to wait for the watcher's report on how a learner ended
SETUP_FAILED_EXIT = 70          # zygote.py's exit code when a learner process could not confine itself
CHUNK = 1 << 20


@dataclasses.dataclass(frozen=True)
class Limits:
    time_limit: float                   # seconds: the learner's code, loading and all calls together
    memory_mb: int = DEFAULT_MEMORY_MB  # memory a learner process may add to what the zygote uses
    call_limit: float | None = None     # seconds for any one call (default: what is left of time_limit)
    importable: frozenset | None = None  # top-level modules the submission may import (default: any)
    test_limit: float | None = None     # seconds for the calls of any one test, within time_limit


class RemoteLearner:
    def __init__(self, entry_name, source, control, limits):
        self.entry_name, self.source, self.control, self.limits = entry_name, source, control, limits
        self._process = None
        self._loaded = False
        self._used = 0.0
        self._test_started_at = 0.0  # self._used when the running test began
        self._send_output = None
        self._printed = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

        def learner_function(*args, **kwargs):
            return self._call(args, kwargs)
        learner_function.__name__ = entry_name
        self.function = learner_function

    # -- the engine's side (see grader/core/engine.py run_tests) --

    def start(self, send_output):
        self._send_output = send_output

    def load(self):
        try:
            self._ensure_process()
        except LearnerStopped as stopped:
            return (stopped.status, stopped.message)
        return None

    def begin_test(self):
        self._test_started_at = self._used

    def out_of_time(self):
        if self._left() <= 0:
            return f"the time limit of {self.limits.time_limit:g} s for your code was used up by earlier tests."
        return None

    def stop(self):
        self._discard()

    # -- calls --

    def _call(self, args, kwargs):
        self._ensure_process()
        try:
            tree, blobs = encode_value((list(args), dict(kwargs)))
        except Unencodable as exc:
            raise TypeError(f"the hidden test passed {exc}, which cannot be sent to the learner's code") from None
        limit, late = self._left(), self._used_up()
        call_limit, test_limit = self.limits.call_limit, self.limits.test_limit
        if test_limit is not None and test_limit - self._used_in_test() < limit:
            limit = test_limit - self._used_in_test()
            late = f"this test's calls to your function took more than {test_limit:g} s (the limit for one test)"
        if call_limit is not None and call_limit < limit:
            limit, late = call_limit, f"your function did not return within {call_limit:g} s (the limit for one call)"
        message, blobs = self._exchange({"call": tree}, blobs, limit, late)
        if set(message) == {"return"}:
            try:
                return decode_value(message["return"], blobs)
            except WireError as exc:
                self._interfered(f"its answer is not valid data: {exc}")
        if set(message) == {"raised"} and type(message["raised"]) is dict:
            raised = message["raised"]
            bases, text, description = raised.get("bases"), raised.get("message"), raised.get("description")
            if (type(bases) is list and all(type(b) is str for b in bases)
                    and type(text) is str and type(description) is str):
                raise learner_exception(bases[:64], text[:500], description[:MESSAGE_LIMIT])
        if set(message) == {"unencodable"} and type(message["unencodable"]) is str:
            fail(f"your function returned {message['unencodable'][:300]}, which cannot be graded: return "
                 "numbers, strings, lists, tuples, dicts or numpy arrays of numbers")
        self._interfered("it sent an answer the grader does not understand")

    def prepare(self):
        """Ask for a learner process now, so that it starts while the hidden tests load."""
        if self._process is None:
            try:
                self._process = _LearnerProcess.spawn(self.control, self.limits)
            except LearnerStopped:
                pass  # load() asks again and reports the problem

    def _ensure_process(self):
        if self._process is not None and self._loaded:
            return
        if self._left() <= 0:
            raise LearnerStopped("timeout", f"Not run: {self.out_of_time()}")
        if self._process is None:
            self._process = _LearnerProcess.spawn(self.control, self.limits)
        importable = self.limits.importable
        request = {"load": {"entry": self.entry_name, "source": self.source,
                            "importable": sorted(importable) if importable is not None else None}}
        message, _ = self._exchange(request, (), self._left(), self._used_up(), loading=True)
        error = message.get("loaded", 0)
        if set(message) != {"loaded"} or not (error is None or type(error) is str):
            self._interfered("it answered the load request with something else")
        if error is not None:
            self._discard()
            raise LearnerStopped("error", error[:MESSAGE_LIMIT])
        self._loaded = True

    def _exchange(self, message, blobs, seconds, late, loading=False):
        """Send one message and wait for the answer, at most `seconds`; LearnerStopped when it does not come.

        `late` says what happened when the time is up.
        """
        process = self._process
        outgoing = memoryview(frame(message, blobs))
        reader = FrameReader()
        started = time.monotonic()
        deadline = started + max(seconds, 0.0)
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._discard()
                    where = " while loading your code" if loading else ""
                    raise LearnerStopped("timeout", f"Time limit exceeded{where}: {late}.")
                watched = [process.channel, process.output] if process.output_open else [process.channel]
                readable, writable, _ = select.select(watched, [process.channel] if outgoing else [], [], remaining)
                if process.output in readable:
                    self._drain_output()
                if writable:
                    sent = _send_some(process.channel, outgoing)
                    outgoing = outgoing[sent:] if sent is not None else outgoing[:0]
                if process.channel in readable:
                    data = _receive_some(process.channel)
                    if data is None:
                        continue
                    if not data:
                        self._drain_output()
                        raise LearnerStopped("error", self._describe_end(loading))
                    try:
                        answers = reader.feed(data)
                    except WireError as exc:
                        self._interfered(f"it sent a malformed message: {exc}")
                    if answers:
                        if len(answers) > 1 or reader.pending or outgoing:
                            self._interfered("it sent more than one answer")
                        self._drain_output()
                        return answers[0]
        finally:
            self._used += time.monotonic() - started

    def _drain_output(self):
        """Forward whatever the learner's code has printed so far (without waiting for more)."""
        if self._process is None or not self._process.output_open:
            return
        while True:
            try:
                data = os.read(self._process.output, CHUNK)
            except BlockingIOError:
                return
            except OSError:
                return
            if not data:
                self._process.output_open = False  # the learner's code closed its stdout and stderr
                return
            text = self._decoder.decode(data)
            room = STDOUT_LIMIT + 1 - self._printed  # one past the cap marks the output as truncated
            if text and room > 0:
                self._printed += min(len(text), room)
                self._send_output(text[:room])

    def _describe_end(self, loading):
        """Why the learner process ended by itself; the process is discarded."""
        status = self._process.exit_status()
        self._discard()
        when = " while loading" if loading else ""
        if status is None:
            return f"Your code ended the Python process{when} (it stopped answering)."
        if "signal" in status:
            number = status["signal"]
            if number == 11:
                return (f"Your code crashed the Python interpreter{when} (segmentation fault), "
                        "for example by recursing too deeply after raising the recursion limit.")
            if number == 9:
                return f"Your code's process was killed{when} (SIGKILL), most likely for using too much CPU or memory."
            return f"Your code crashed the Python interpreter{when} (signal {number})."
        if status.get("exit") == SETUP_FAILED_EXIT:
            return "The sandbox could not start a process for your code; this is a problem of the grading setup."
        return (f"Your code ended the Python process{when} (exit code {status.get('exit')}), e.g. with os._exit(); "
                "return the result instead.")

    def _interfered(self, what):
        self._discard()
        raise LearnerStopped("error", f"Your code interfered with the grader: {what}.")

    def _used_up(self):
        return (f"your code was still running when its {self.limits.time_limit:g} s "
                "(for loading and all tests together) ran out")

    def _used_in_test(self):
        return self._used - self._test_started_at

    def _left(self):
        return self.limits.time_limit - self._used

    def _discard(self):
        self._loaded = False
        if self._process is not None:
            self._process.close()
            self._process = None


class _LearnerProcess:
    """The checker's ends of one learner process: its channel, its output pipe, its watcher's status socket."""

    def __init__(self, channel, output, status):
        self.channel, self.output, self.status = channel, output, status
        self.output_open = True

    @classmethod
    def spawn(cls, control, limits):
        channel, their_channel = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        status, their_status = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        output, their_output = os.pipe()
        request = json.dumps({"memory_mb": int(limits.memory_mb),
                              "cpu_seconds": int(limits.time_limit) + 1 + CPU_MARGIN,
                              "file_bytes": FILE_SIZE_LIMIT}).encode()
        try:
            socket.send_fds(control, [request], [their_channel.fileno(), their_output, their_status.fileno()])
        except OSError as exc:
            for end in (channel, status):
                end.close()
            os.close(output)
            raise LearnerStopped("error", f"The sandbox that runs your code has stopped ({exc.strerror}); "
                                          "this is a problem of the grading setup, not of your code.") from None
        finally:
            their_channel.close()
            their_status.close()
            os.close(their_output)
        channel.setblocking(False)
        os.set_blocking(output, False)
        return cls(channel, output, status)

    def exit_status(self):
        """How the learner ended, as the watcher reports it ({"exit": n} or {"signal": n}), or None."""
        self.status.settimeout(EXIT_STATUS_WAIT)
        try:
            data = self.status.recv(256)
            status = json.loads(data)
        except (OSError, ValueError):
            return None
        if type(status) is dict and len(status) == 1 and type(next(iter(status.values()))) is int:
            return status
        return None

    def close(self):
        # Closing the status socket tells the watcher to kill the learner and all it started.
        self.status.close()
        self.channel.close()
        os.close(self.output)


def _send_some(channel, data):
    """How many bytes of `data` went out now; None when the learner can no longer receive."""
    try:
        return channel.send(data[:CHUNK])
    except (BlockingIOError, InterruptedError):
        return 0
    except OSError as exc:
        if exc.errno in (errno.EPIPE, errno.ECONNRESET):
            return None  # the learner is gone; reading its channel tells us how it ended
        raise


def _receive_some(channel):
    """Bytes received now; b"" when the channel is closed, None when nothing is there yet."""
    try:
        return channel.recv(CHUNK)
    except (BlockingIOError, InterruptedError):
        return None
    except OSError:
        return b""

"""The learner's function as the hidden tests see it, when the learner's code runs in another process.

`RemoteLearner` asks the sandbox's zygote for a learner process, sends it the
submission, and turns each call from a test into a message: the arguments go
as data, the answer comes back as data (or as the learner's exception, which
is raised here with the same built-in type).  This side owns the clock: the
time limits are budgets of CPU time, counted for the learner's processes and
threads together by their cgroup (grader/checker/cgroups.py), so a busy
machine does not make a learner late; every exchange also has a generous
wall-clock backstop (`wall_backstop`), so a learner that sleeps or blocks
still ends.  Without a cgroup the learner is one process (see
grader/learner/seccomp.py) and its CPU time is read from /proc.  The
learner's time for loading and for all calls together is capped by the time
limit.  A learner process that runs out of time or memory, dies or sends
anything malformed is killed, the test gets its verdict, and the next call
starts a fresh process.

What the learner's code prints arrives on a pipe that is drained while
waiting, so a chatty learner never blocks, and each piece goes to the test
that was running when it arrived.
"""

import codecs
import dataclasses
import errno
import fcntl
import json
import mmap
import os
import select
import socket
import time


from grader.checker.references import References
from grader.core.checks import fail
from grader.core.engine import LearnerStopped, learner_exception
from grader.core.report import MESSAGE_LIMIT, STDOUT_LIMIT
from grader.core.side_effects import changed_argument
from grader.wire import FrameReader, Unencodable, WireError, arrays, decode_value, encode_value, frame

DEFAULT_MEMORY_MB = 1024
FILE_SIZE_LIMIT = 32 * 1024 * 1024   # cap on any file the learner's code writes
TMPFS_WITHOUT_CGROUP = 64 * 1024 * 1024  # size of its /tmp and of its /dev/shm when no cgroup counts them
PROCESS_LIMIT = 64              # processes and threads in a learner's cgroup
CPU_MARGIN = 5                  # seconds of CPU past the time limit before the kernel ends a learner
BACKSTOP_FACTOR, BACKSTOP_SECONDS = 3, 5.0  # wall-clock time allowed for `s` seconds of CPU: 3 s + 5
CPU_CHECK_MIN, CPU_CHECK_MAX = 0.01, 0.25  # seconds between two readings of the learner's CPU time and memory
CPUS = len(os.sched_getaffinity(0))  # the learner's processes cannot use CPU time faster than this
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")   # units of the times in /proc/PID/stat
PIDFD_MARK = b"P"               # the byte that carries the learner's pidfd, first on its status socket
EXIT_STATUS_WAIT = 2.0          # how long to wait for the watcher's report on how a learner ended
SETUP_FAILED_EXIT = 70          # zygote.py's exit code when a learner process could not confine itself
CHUNK = 1 << 20
SHARED_ALIGNMENT = 64           # where each array starts in the arguments' memory file
MAX_PARAMETERS, MAX_NAME = 256, 100  # what the learner may report of its function's signature


@dataclasses.dataclass(frozen=True)
class Limits:
    time_limit: float                   # CPU seconds: the learner's code, loading and all calls together
    memory_mb: int = DEFAULT_MEMORY_MB  # memory all of a learner's processes and files may add together
    call_limit: float | None = None     # CPU seconds for any one call (default: what is left of time_limit)
    importable: frozenset | None = None  # top-level modules the submission may import (default: any)
    test_limit: float | None = None     # CPU seconds for the calls of any one test, within time_limit
    test_code_limit: float | None = None  # wall-clock seconds for the hidden tests' own code, all tests together
                                          # (tests_timer.py; default: time_limit)

    @property
    def tests_own_seconds(self):
        return self.test_code_limit if self.test_code_limit is not None else self.time_limit


def wall_backstop(cpu_seconds):
    """The wall-clock time after which a learner given `cpu_seconds` of CPU time is stopped anyway."""
    return BACKSTOP_FACTOR * cpu_seconds + BACKSTOP_SECONDS


class RemoteLearner:
    def __init__(self, entry_name, source, sandbox, limits, earlier=()):
        self.entry_name, self.source, self.sandbox, self.limits = entry_name, source, sandbox, limits
        self.earlier = tuple(earlier)  # EarlierStep: their entry functions are in the learner's scope
        self.references = References(self.earlier)  # run here, for the learner's calls to them
        self._parameters = []  # the names of the learner's function's parameters, as it reported them
        self._process = None
        self._loaded = False
        self._used = 0.0       # CPU seconds
        self._wall_used = 0.0  # wall-clock seconds, against the backstop for time_limit
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
        # One wording whether the CPU time or the wall-clock backstop ran out: the same code, graded on a
        # busy machine, gets the same record.
        if self._left() <= 0 or self._wall_left() <= 0:
            return f"the limit of {self.limits.time_limit:g} s of CPU time for your code was used up by earlier tests."
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
            late = (f"this test's calls to your function used more than {test_limit:g} s of CPU time "
                    "(the limit for one test)")
        if call_limit is not None and call_limit < limit:
            limit = call_limit
            late = f"your function did not return within {call_limit:g} s of CPU time (the limit for one call)"
        with _SharedArguments(blobs) as shared:
            message, answer_blobs = self._exchange({"call": tree, "shared": shared.places}, shared.blobs, limit,
                                                   late, fds=shared.fds)
            now = shared.changed()
        if set(message) in ({"return"}, {"return", "side_effect"}):
            result = self._checked_return(tree, blobs, now, message, answer_blobs)
            if "side_effect" in message and type(message["side_effect"]) is str:
                fail(message["side_effect"][:MESSAGE_LIMIT])
            return result
        if set(message) == {"changed"} and type(message["changed"]) is str:
            fail(f"your function changed its arguments in place: {message['changed'][:300]}")
        if now is not None and set(message) == {"unencodable"}:
            self._fail_if_changed(tree, blobs, now, None)
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

    def _checked_return(self, tree, blobs, now, message, answer_blobs):
        """The result of a call that returned, after failing the test when the call changed an argument."""
        try:
            result, reported = decode_value(message["return"], answer_blobs,
                                            known=list(arrays(decode_value(tree, now or blobs))))
        except (WireError, ValueError, TypeError) as exc:
            self._interfered(f"its answer is not valid data: {exc}")
        if type(reported) is not tuple or len(reported) != 2:
            self._interfered("its answer is not valid data: no arguments after the call")
        self._fail_if_changed(tree, blobs, now, reported)
        return result

    def _fail_if_changed(self, tree, blobs, now, reported):
        """Fail the test when the call changed its arguments: their arrays as the memory they were views of
        holds them now (`now`, None when unchanged), seen here, and the rest as the learner's process reports
        them (`reported`, None when not known)."""
        pristine = decode_value(tree, blobs, copy=False)
        if reported is None:
            reported = decode_value(tree, now, copy=False)
        problem = changed_argument(self._parameters, pristine, reported)
        if problem is not None:
            fail(problem)

    def prepare(self):
        """Ask for a learner process now, so that it starts while the hidden tests load."""
        if self._process is None:
            try:
                self._process = _LearnerProcess.spawn(self.sandbox, self.limits)
            except LearnerStopped:
                pass  # load() asks again and reports the problem

    def _ensure_process(self):
        if self._process is not None and self._loaded:
            return
        if self.out_of_time():
            raise LearnerStopped("timeout", f"Not run: {self.out_of_time()}")
        if self._process is None:
            self._process = _LearnerProcess.spawn(self.sandbox, self.limits)
        importable = self.limits.importable
        # The steps in scope by name only: their code stays here (see grader/checker/references.py).
        earlier = [{key: value for key, value in step.to_dict().items() if key != "source"} for step in self.earlier]
        request = {"load": {"entry": self.entry_name, "source": self.source,
                            "importable": sorted(importable) if importable is not None else None,
                            "earlier": earlier}}
        message, _ = self._exchange(request, (), self._left(), self._used_up(), loading=True)
        error, parameters = message.get("loaded", 0), message.get("parameters")
        if set(message) != {"loaded", "parameters"} or not (error is None or type(error) is str):
            self._interfered("it answered the load request with something else")
        if (type(parameters) is not list or len(parameters) > MAX_PARAMETERS
                or not all(type(p) is str and p.isidentifier() and len(p) <= MAX_NAME for p in parameters)):
            self._interfered("it described its function's parameters wrongly")
        self._parameters = parameters
        if error is not None:
            self._discard()
            raise LearnerStopped("error", error[:MESSAGE_LIMIT])
        self._loaded = True

    def _exchange(self, message, blobs, seconds, late, loading=False, fds=()):
        """Send one message (with the file descriptors `fds`) and wait for the answer, at most `seconds` of
        the learner's CPU time (and the wall-clock backstop); LearnerStopped when it does not come.
        Meanwhile answer the learner's calls to the earlier steps in its scope.

        `late` says what happened when the time is up.
        """
        process = self._process
        outgoing = memoryview(frame(message, blobs))
        reader = FrameReader()
        seconds = max(seconds, 0.0)
        started, cpu_started = time.monotonic(), process.cpu_seconds()
        wall_deadline = started + min(wall_backstop(seconds), self._wall_left())
        used, next_check = 0.0, started
        try:
            while True:
                now = time.monotonic()
                if now >= next_check:
                    self._check_memory()
                    # The learner cannot use more than CPUS seconds of CPU per second: no need to look sooner.
                    used = process.cpu_seconds() - cpu_started
                    next_check = now + min(max((seconds - used) / CPUS, CPU_CHECK_MIN), CPU_CHECK_MAX)
                if used >= seconds or now >= wall_deadline:
                    self._check_memory()
                    self._discard()
                    where = " while loading your code" if loading else ""
                    # No measured figures in the message: grading the same code twice gives the same record.
                    backstop = "" if used >= seconds else (
                        " (the wall-clock backstop ended it before it had used that CPU time: it was waiting, "
                        "e.g. sleeping, or the machine was very busy)")
                    raise LearnerStopped("timeout", f"Time limit exceeded{where}: {late}{backstop}.")
                watched = [process.channel, process.output] if process.output_open else [process.channel]
                wait = min(next_check, wall_deadline) - now
                readable, writable, _ = select.select(watched, [process.channel] if outgoing else [], [], wait)
                if process.output in readable:
                    self._drain_output()
                if writable:
                    sent = _send_some(process.channel, outgoing, fds)
                    if sent:
                        fds = ()  # they went with the first bytes
                    outgoing = outgoing[sent:] if sent is not None else outgoing[:0]
                if process.channel in readable:
                    data = _receive_some(process.channel)
                    if data is None:
                        continue
                    if not data:
                        self._drain_output()
                        self._check_memory()
                        raise LearnerStopped("error", self._describe_end(loading))
                    try:
                        answers = reader.feed(data)
                    except WireError as exc:
                        self._interfered(f"it sent a malformed message: {exc}")
                    for index, answer in enumerate(answers):
                        if outgoing:
                            self._interfered("it sent more than one answer")
                        if set(answer[0]) == {"earlier_call"}:
                            outgoing = memoryview(frame(*self._call_reference(answer, wall_deadline)))
                            continue
                        if index < len(answers) - 1 or reader.pending:
                            self._interfered("it sent more than one answer")
                        self._drain_output()
                        self._check_memory()
                        return answer
        finally:
            self._used += max(used, process.cpu_seconds() - cpu_started)  # the last reading, once it ended
            self._wall_used += time.monotonic() - started

    def _call_reference(self, request, wall_deadline):
        """The answer to the learner's call to an earlier step in its scope (see grader/checker/references.py)."""
        message, blobs = request
        try:
            return self.references.answer(message["earlier_call"], blobs, wall_deadline - time.monotonic())
        except ValueError as exc:
            self._interfered(str(exc))
        except LearnerStopped:
            self._discard()
            raise

    def _check_memory(self):
        """Stop the learner with a clear verdict when the kernel killed one of its processes for memory."""
        if self._process is not None and self._process.out_of_memory():
            self._discard()
            raise LearnerStopped("error", f"Memory limit exceeded: your code used more than {self.limits.memory_mb} MB "
                                          "(all its processes and its files in /tmp and /dev/shm together), "
                                          "so it was stopped.")

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
        return (f"your code was still running when its {self.limits.time_limit:g} s of CPU time "
                "(for loading and all tests together) ran out")

    def _used_in_test(self):
        return self._used - self._test_started_at

    def _left(self):
        return self.limits.time_limit - self._used

    def _wall_left(self):
        return wall_backstop(self.limits.time_limit) - self._wall_used

    def _discard(self):
        self._loaded = False
        if self._process is not None:
            self._process.close()
            self._process = None


class _LearnerProcess:
    """The checker's ends of one learner process: its channel, its output pipe, its watcher's status socket,
    and its cgroup (None without one)."""

    def __init__(self, channel, output, status, cgroup):
        self.channel, self.output, self.status, self.cgroup = channel, output, status, cgroup
        self.output_open = True
        self._cpu = 0.0          # the last reading of its CPU time
        self._pidfd = None       # without a cgroup: the learner's pidfd and /proc/PID/stat (see _read_cpu)
        self._stat_path = None

    @classmethod
    def spawn(cls, sandbox, limits):
        memory_bytes = int(limits.memory_mb) * 1024 * 1024
        try:
            cgroup = sandbox.cgroups.learner(memory_bytes, PROCESS_LIMIT) if sandbox.cgroups else None
            cgroup_fds = cgroup.open_procs() if cgroup else []
        except OSError as exc:
            raise LearnerStopped("error", f"The grader could not make a cgroup for your code ({exc}); "
                                          "this is a problem of the grading setup, not of your code.") from None
        channel, their_channel = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        status, their_status = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        output, their_output = os.pipe()
        request = json.dumps({"memory_mb": int(limits.memory_mb),
                              "cpu_seconds": int(limits.time_limit) + 1 + CPU_MARGIN,
                              "file_bytes": FILE_SIZE_LIMIT,
                              "tmpfs_bytes": memory_bytes if cgroup else TMPFS_WITHOUT_CGROUP}).encode()
        try:
            socket.send_fds(sandbox.control, [request],
                            [their_channel.fileno(), their_output, their_status.fileno(), *cgroup_fds])
        except OSError as exc:
            for end in (channel, status):
                end.close()
            os.close(output)
            if cgroup:
                cgroup.remove()
            raise LearnerStopped("error", f"The sandbox that runs your code has stopped ({exc.strerror}); "
                                          "this is a problem of the grading setup, not of your code.") from None
        finally:
            their_channel.close()
            their_status.close()
            os.close(their_output)
            for fd in cgroup_fds:
                os.close(fd)
        channel.setblocking(False)
        os.set_blocking(output, False)
        return cls(channel, output, status, cgroup)

    def cpu_seconds(self):
        """CPU time the learner has used so far (all its processes and threads); after close, the last reading."""
        if self.status is not None:
            try:
                self._cpu = max(self._cpu, self._read_cpu())
            except (OSError, ValueError):
                pass  # it has ended: its last reading stands
        return self._cpu

    def _read_cpu(self):
        """Without a cgroup the learner is one process (grader/learner/seccomp.py): its /proc/PID/stat has it all."""
        if self.cgroup is not None:
            return self.cgroup.cpu_seconds()
        if self._stat_path is None:
            self._stat_path = ""  # asked once
            self._receive_pidfd()
        if not self._stat_path:
            raise ProcessLookupError("the learner's PID is not known")
        with open(self._stat_path) as file:
            fields = file.read().rpartition(")")[2].split()
        if select.select([self._pidfd], [], [], 0)[0]:
            raise ProcessLookupError("the learner has ended: its PID may already be another process's")
        return sum(int(f) for f in fields[11:15]) / CLOCK_TICKS  # utime, stime, cutime, cstime

    def _receive_pidfd(self):
        """The learner's pidfd, which its watcher sends first on the status socket."""
        self.status.settimeout(EXIT_STATUS_WAIT)
        _, fds, _, _ = socket.recv_fds(self.status, 1, 1)
        self.status.settimeout(None)
        if len(fds) != 1:
            raise ProcessLookupError("the watcher sent no pidfd")
        self._pidfd = fds[0]
        with open(f"/proc/self/fdinfo/{self._pidfd}") as info:
            pid = int(next(line.split()[1] for line in info if line.startswith("Pid:")))
        if pid <= 0:
            raise ProcessLookupError("the learner has ended")
        self._stat_path = f"/proc/{pid}/stat"

    def out_of_memory(self):
        return self.cgroup is not None and self.cgroup.out_of_memory()

    def exit_status(self):
        """How the learner ended, as the watcher reports it ({"exit": n} or {"signal": n}), or None."""
        self.status.settimeout(EXIT_STATUS_WAIT)
        try:
            data = self.status.recv(256)
            if data == PIDFD_MARK:  # the pidfd the watcher sent first, not read (the kernel closed it)
                data = self.status.recv(256)
            status = json.loads(data.removeprefix(PIDFD_MARK))
        except (OSError, ValueError):
            return None
        if type(status) is dict and len(status) == 1 and type(next(iter(status.values()))) is int:
            return status
        return None

    def close(self):
        self.cpu_seconds()
        # Closing the status socket tells the watcher to kill the learner and all it started.
        self.status.close()
        self.status = None
        self.channel.close()
        os.close(self.output)
        if self._pidfd is not None:
            os.close(self._pidfd)
        if self.cgroup is not None:
            self.cgroup.remove()


def _send_some(channel, data, fds=()):
    """How many bytes of `data` went out now (`fds` with the first of them); None when the learner can no
    longer receive."""
    try:
        if fds:
            return socket.send_fds(channel, [data[:CHUNK]], list(fds))
        return channel.send(data[:CHUNK])
    except (BlockingIOError, InterruptedError):
        return 0
    except OSError as exc:
        if exc.errno in (errno.EPIPE, errno.ECONNRESET):
            return None  # the learner is gone; reading its channel tells us how it ended
        raise


class _SharedArguments:
    """The arguments' array bytes in a memory file the learner's process maps: its arrays are views of it, so
    whatever the learner's code writes into them is seen here after the call, whatever it changes in its own
    process.  No file (the bytes go in the message) when the arguments hold no array data.

    The file is sealed against shrinking and growing, so reading it back never faults.
    """

    def __init__(self, blobs):
        self.blobs, self.places, self.fds = blobs, [], ()
        self._originals, self._mapping = None, None
        sizes = [len(memoryview(blob).cast("B")) for blob in blobs]
        if not any(sizes):
            return
        offset = 0
        for size in sizes:
            self.places.append([offset, size])
            offset += -(-size // SHARED_ALIGNMENT) * SHARED_ALIGNMENT
        fd = os.memfd_create("arguments", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        try:
            os.ftruncate(fd, offset)
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
            self._mapping = mmap.mmap(fd, offset)
        except BaseException:
            os.close(fd)
            raise
        for (start, size), blob in zip(self.places, blobs):
            self._mapping[start:start + size] = memoryview(blob).cast("B")
        self._originals, self.blobs, self.fds = blobs, (), (fd,)

    def changed(self):
        """The blobs as the memory file holds them now, when any differs from what was sent; else None."""
        if self._mapping is None:
            return None
        now = [self._mapping[start:start + size] for start, size in self.places]
        if all(after == memoryview(before).cast("B") for after, before in zip(now, self._originals)):
            return None
        return now

    def __enter__(self):
        return self

    def __exit__(self, *_):
        if self._mapping is not None:
            self._mapping.close()
        for fd in self.fds:
            os.close(fd)


def _receive_some(channel):
    """Bytes received now; b"" when the channel is closed, None when nothing is there yet."""
    try:
        return channel.recv(CHUNK)
    except (BlockingIOError, InterruptedError):
        return None
    except OSError:
        return b""

"""Grade a submission in a child process with a time limit and a memory limit (CPython only).

Children are forked from a warm multiprocessing fork server that has numpy and
the engine imported, so each submission costs a fork, not an interpreter start.
Each child runs in its own session (process group), in a fresh working
directory, with a memory limit and a cap on what it writes to files and to its
raw stdout/stderr.  It streams the engine's events back over a pipe as JSON,
each tagged with a per-run random token; the parent builds the report from
them, so a child that loops, exits, crashes or runs out of memory still yields
a full report, and the child's prints never reach the parent's own stdout.
"""

import dataclasses
import json
import math
import multiprocessing
import os
import resource
import secrets
import shutil
import signal
import sys
import tempfile
import time

from grader.core.engine import GradingSpec, grade, load_tests
from grader.core.report import ReportBuilder

DEFAULT_MEMORY_MB = 1024
RAW_OUTPUT_BYTES = 64_000          # cap on what the child writes to fds 1/2 and to any one file
MAX_MESSAGE_BYTES = 1_000_000      # a single event larger than this means tampering
CPU_LIMIT_MARGIN = 5                # seconds of CPU past the time limit before the kernel ends a child
STARTUP_TIMEOUT = 60.0             # fork + setup, before the time limit starts
RAW_OUTPUT_FILE = "raw-output.txt"

# numpy's BLAS would otherwise start a thread per core in every child.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(["numpy", "grader.isolation"])


@dataclasses.dataclass(frozen=True)
class Limits:
    time_limit: float                  # seconds of wall-clock time for the learner's code and all tests
    memory_mb: int = DEFAULT_MEMORY_MB  # address space the child may add to what the fork server uses


def grade_isolated(spec, source, limits, test_names=None):
    """Grade `source` in a fresh child process; always returns a full report.

    `test_names` saves loading the hidden tests again when grading many submissions.
    """
    if test_names is None:
        test_names = [test.name for test in load_tests(spec)]  # raises TestsError for a broken exercise
    token = secrets.token_hex(16)
    workdir = tempfile.mkdtemp(prefix="grader-run-")
    receiver, sender = _context.Pipe(duplex=False)
    child = _context.Process(target=_child_main, name="grader-child",
                             args=(sender, token, dataclasses.asdict(spec), source, workdir, limits))
    try:
        child.start()
        _live_children.add(child)
        sender.close()
        builder = ReportBuilder(spec.exercise_id, test_names)
        interruption = _follow(receiver, token, builder, limits.time_limit)
        _kill_group(child)
        if interruption is None and not builder.done:
            interruption = ("error", _describe_exit(child.exitcode))
        raw_output = _read_raw_output(workdir)
        if raw_output:
            builder.add({"event": "stdout", "text": raw_output})
        return builder.finish(interruption)
    finally:
        receiver.close()
        _kill_group(child)
        _live_children.discard(child)
        shutil.rmtree(workdir, ignore_errors=True)


def kill_all_children():
    """Kill every child still grading (e.g. on Ctrl+C); their grade_isolated calls then return at once."""
    for child in list(_live_children):
        _kill_group(child)


_live_children = set()


def _follow(receiver, token, builder, time_limit):
    """Feed the child's events to `builder` until it is done; return an interruption or None."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while not builder.done:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return ("timeout", f"Time limit exceeded: the tests did not finish within {time_limit:g} s.")
        if not receiver.poll(remaining):
            continue
        try:
            data = receiver.recv_bytes(MAX_MESSAGE_BYTES)
        except (EOFError, OSError):
            return None  # the child is gone; the caller asks how it ended
        event = _parse(data, token)
        if event is None:
            return ("error", "Your code interfered with the grader (it wrote to the grader's result channel).")
        if event.get("event") == "start":
            deadline = time.monotonic() + time_limit
        builder.add(event)
    return None


def _parse(data, token):
    try:
        tag, event = json.loads(data)
    except (ValueError, TypeError):
        return None
    return event if tag == token and isinstance(event, dict) else None


def _kill_group(child):
    """Kill the child and everything it started (it leads its own process group)."""
    if child.pid is None:
        return
    for kill in (lambda: os.killpg(child.pid, signal.SIGKILL), child.kill):
        try:
            kill()
        except (ProcessLookupError, PermissionError):
            pass
    child.join(5)


def _describe_exit(exitcode):
    if exitcode is None:
        return "The grading process stopped responding."
    if exitcode < 0:
        number = -exitcode
        if number == signal.SIGSEGV:
            return ("Your code crashed the Python interpreter (segmentation fault), "
                    "for example by recursing too deeply after raising the recursion limit.")
        if number == signal.SIGKILL:
            return "The grading process was killed (SIGKILL), most likely for using too much memory."
        return f"Your code crashed the Python interpreter ({signal.Signals(number).name})."
    return f"Your code ended the grading process early (exit code {exitcode}), e.g. with os._exit()."


def _read_raw_output(workdir):
    path = os.path.join(workdir, RAW_OUTPUT_FILE)
    try:
        with open(path, "rb") as file:
            return file.read(RAW_OUTPUT_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _child_main(sender, token, spec_fields, source, workdir, limits):
    """Runs in the forked child: confine itself, grade, report, exit without cleanup handlers."""
    os.setsid()
    os.chdir(workdir)
    _redirect_std_streams()
    _set_limits(limits)

    def emit(event):
        sender.send_bytes(json.dumps([token, event]).encode())

    try:
        grade(GradingSpec(**spec_fields), source, emit)
    finally:
        for stream in (sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(0)


def _redirect_std_streams():
    output = os.open(RAW_OUTPUT_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.close(output)
    os.close(devnull)


def _set_limits(limits):
    # Writing past the file-size cap fails with EFBIG instead of killing the child.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (RAW_OUTPUT_BYTES, RAW_OUTPUT_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # A backstop should the parent die without killing us: the kernel ends a child that spins on.
    cpu_seconds = math.ceil(limits.time_limit) + CPU_LIMIT_MARGIN
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    address_space = _current_address_space() + limits.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))


def _current_address_space():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0

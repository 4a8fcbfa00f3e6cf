"""Run an exercise's hidden tests against learner source code, in this interpreter.

`grade(spec, source, emit)` is the whole engine: the browser worker (Pyodide)
and the CLI's isolated child process both call it.  It emits events (see
`report.py`) as it goes and returns the finished report.  Time limits are
enforced from outside by whoever can kill the interpreter (the CLI's parent
process, the page that owns the worker); the report builder turns such a kill
into `timeout` verdicts.
"""

import copy
import dataclasses
import inspect
import io
import linecache
import sys
import time
import traceback
import types

from grader.core import guard
from grader.core.checks import Failed, type_name
from grader.core.report import STDOUT_LIMIT, ReportBuilder

SUBMISSION_FILENAME = "submission.py"
TESTS_MODULE = "hidden_tests"


@dataclasses.dataclass(frozen=True)
class GradingSpec:
    """What the engine needs to know about an exercise."""
    exercise_id: str
    entry: str
    tests_source: str
    tests_filename: str = "tests.py"


@dataclasses.dataclass(frozen=True)
class HiddenTest:
    name: str
    function: types.FunctionType


class TestsError(Exception):
    """The exercise's hidden tests cannot be loaded: the exercise is broken, not the submission."""


def load_tests(spec):
    """Import the hidden tests as module `hidden_tests` and collect them in definition order."""
    _register_source(spec.tests_filename, spec.tests_source)
    module = types.ModuleType(TESTS_MODULE)
    module.__file__ = spec.tests_filename
    try:
        code = compile(spec.tests_source, spec.tests_filename, "exec")
        sys.modules[TESTS_MODULE] = module
        exec(code, module.__dict__)
    except Exception as exc:
        sys.modules.pop(TESTS_MODULE, None)
        raise TestsError(f"{spec.tests_filename}: hidden tests fail to import: {_one_line(exc)}") from exc
    tests = []
    for name, value in module.__dict__.items():
        if not (name.startswith("test_") and isinstance(value, types.FunctionType)
                and value.__module__ == TESTS_MODULE):
            continue
        parameters = list(inspect.signature(value).parameters)
        if parameters != [spec.entry]:
            line = value.__code__.co_firstlineno
            raise TestsError(f"{spec.tests_filename}:{line}: {name} must take exactly one parameter "
                             f"named {spec.entry!r} (the learner's function), not {parameters}")
        doc = inspect.getdoc(value) or ""
        title = doc.strip().splitlines()[0].strip() if doc.strip() else name
        tests.append(HiddenTest(title, value))
    if not tests:
        raise TestsError(f"{spec.tests_filename}: defines no test_* functions")
    return tests


def grade(spec, source, emit=None):
    """Grade `source` against the hidden tests of `spec`; return the report (see report.py)."""
    tests = load_tests(spec)
    builder = ReportBuilder(spec.exercise_id, [t.name for t in tests])

    def send(event):
        builder.add(event)
        if emit is not None:
            emit(event)

    send({"event": "start", "exercise": spec.exercise_id, "tests": [t.name for t in tests]})
    capture = CappedOutput(send)
    real_streams = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = capture
    try:
        _run(spec, source, tests, send)
    finally:
        sys.stdout, sys.stderr = real_streams
    send({"event": "done"})
    return builder.finish()


def _run(spec, source, tests, send):
    restore, extra_threads = guard.protect(extra_modules=(TESTS_MODULE,))
    entry, error = _load_submission(spec, source)
    restore()
    if error is None and extra_threads() > 0:
        error = _THREADS_MESSAGE
    send({"event": "loaded", "error": error})
    if error is not None:
        return
    learner_function = _guarded(entry, restore, extra_threads)
    for index, test in enumerate(tests):
        send({"event": "test_start", "index": index})
        started = time.perf_counter()
        try:
            test.function(learner_function)
            status, message = "passed", ""
        except _ThreadsLeftRunning:
            status, message = "error", _THREADS_MESSAGE
        except BaseException as exc:  # the learner's code may raise anything, SystemExit included
            status, message = _verdict(exc)
        finally:
            restore()
        duration_ms = (time.perf_counter() - started) * 1000
        send({"event": "test", "index": index, "status": status, "message": message,
              "duration_ms": duration_ms})
        if extra_threads() > 0:
            send({"event": "aborted", "error": _THREADS_MESSAGE})
            return


def _load_submission(spec, source):
    """Run the learner's module; return (entry function, None) or (None, error message)."""
    try:
        code = compile(source, SUBMISSION_FILENAME, "exec")
    except SyntaxError as exc:
        where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
        return None, f"{type(exc).__name__} on {where}: {exc.msg}"
    except (ValueError, MemoryError, RecursionError) as exc:  # e.g. null bytes, absurdly nested code
        return None, f"Your code could not be compiled: {_one_line(exc)}"
    _register_source(SUBMISSION_FILENAME, source)
    module = types.ModuleType("submission")
    module.__file__ = SUBMISSION_FILENAME
    try:
        exec(code, module.__dict__)
    except BaseException as exc:
        return None, "Your code raised an error while loading (before any test ran):\n" + _describe_exception(exc)
    entry = module.__dict__.get(spec.entry)
    if entry is None:
        return None, f"Your code does not define a function named `{spec.entry}`."
    if not callable(entry):
        return None, f"`{spec.entry}` should be a function, but your code makes it a {type_name(entry)}."
    return entry, None


class _ThreadsLeftRunning(Exception):
    pass


_THREADS_MESSAGE = ("Your code started threads that are still running. They are not allowed: "
                    "grading stopped, since running threads could change the results.")


def _guarded(function, restore, extra_threads):
    """The learner's function as the tests see it: fresh copies of the arguments, state restored after."""
    deepcopy, threads_left_running = copy.deepcopy, _ThreadsLeftRunning  # bound before learner code can patch them

    def learner_function(*args, **kwargs):
        args, kwargs = deepcopy((args, kwargs))
        try:
            return function(*args, **kwargs)
        finally:
            restore()
            if extra_threads() > 0:
                raise threads_left_running()
    return learner_function


def _verdict(exc):
    """(status, message) for an exception that ended a test."""
    tb = exc.__traceback__
    learner_frames = [f for f in traceback.extract_tb(tb) if f.filename == SUBMISSION_FILENAME]
    if learner_frames or not isinstance(exc, Exception):
        return "error", _describe_exception(exc)
    if isinstance(exc, Failed):
        return "failed", str(exc)
    if isinstance(exc, AssertionError):
        return "failed", str(exc) or _failed_assert_line(tb)
    return "error", f"{type(exc).__name__} while checking your result: {_one_line(exc)}"


def _describe_exception(exc):
    """A learner-facing message: what happened, and the traceback trimmed to the learner's code."""
    if isinstance(exc, SystemExit):
        headline = f"Your code called exit ({_one_line(exc) or 'SystemExit'}); return the result instead of exiting."
    elif isinstance(exc, KeyboardInterrupt):
        headline = "Your code raised KeyboardInterrupt."
    elif isinstance(exc, MemoryError):
        headline = f"MemoryError: your code ran out of memory. {_one_line(exc)}".rstrip()
    else:
        headline = f"{type(exc).__name__}: {_one_line(exc)}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == SUBMISSION_FILENAME]
    if not frames:
        return headline
    lines = [headline, "Traceback (your code, most recent call last):"]
    shown = [f"  line {f.lineno}, in {f.name}: {(f.line or '').strip()}" for f in frames]
    index = 0
    while index < len(shown):
        repeats = 1
        while index + repeats < len(shown) and shown[index + repeats] == shown[index]:
            repeats += 1
        lines.append(shown[index])
        if repeats > 1:
            lines.append(f"  [the line above repeated {repeats - 1} more times]")
        index += repeats
    return "\n".join(lines[:20])


def _failed_assert_line(tb):
    frames = traceback.extract_tb(tb)
    if frames:
        return f"Check failed: {(frames[-1].line or '').strip()}"
    return "Check failed."


def _register_source(filename, source):
    """Let tracebacks show lines of code that exists only as a string (never read a same-named file)."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def _one_line(exc):
    try:
        text = str(exc)
    except BaseException:
        text = "<unprintable>"
    return " ".join(text.split())[:500]


class CappedOutput(io.TextIOBase):
    """Stands in for sys.stdout/sys.stderr: forwards the learner's prints as events, up to a limit."""

    def __init__(self, send):
        self._send = send
        self._written = 0

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type_name(text)}")
        if self._written < STDOUT_LIMIT:
            # One character past the limit tells the report builder to mark the output truncated.
            chunk = text[:STDOUT_LIMIT - self._written + 1]
            self._written += len(chunk)
            self._send({"event": "stdout", "text": chunk})
        return len(text)

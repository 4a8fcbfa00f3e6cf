"""Run an exercise's hidden tests against a learner's code.

`run_tests(spec, learner, emit)` is the engine.  It loads the hidden tests,
asks `learner` to load the learner's code, runs every test with the learner's
function as its argument, and emits events (see `report.py`) as it goes.  What
`learner` is decides where the learner's code runs:

- `InProcessLearner` runs it in this interpreter, beside the tests (the
  browser, where the learner owns the page anyway, and `grade()`).
- The offline checker's `RemoteLearner` (grader/checker/) runs it in a
  separate, sandboxed process and passes arguments and results as data.

An exercise may build on earlier steps of its track (`uses` in exercise.toml):
their code is run first, each in a namespace of its own, and their entry
functions are put in the learner's namespace before the learner's code runs
(a definition of the learner's own wins).  See `EarlierStep`.

Either way a test sees a plain callable named like the entry function, an
exception raised by the learner's code reaches the test as an exception of
the same built-in type (so `except IndexError:` works), and an exception that
the test lets through is the learner's error, not a failed check: its message
introduces the learner's text with "Your code raised" or "Your result raised"
(after what the test said about the call, if anything), words of the engine's
own, so that no text the learner's code chooses reads as the grader's.
Any other exception a test raises comes from its own code: the exercise is
broken, so the test is an error that says so ("Not graded: the exercise has a
bug ..."), and its event carries `test_code_error` (the tests.py line and
traceback), which only the engine sets, from where the exception came from: the
report marks the test `exercise_bug` and leaves it out of the score.
Each test's event also says how long the learner's calls took (`learner_ms`),
the rest of its time being the test's own code.
"""

import builtins
import copy
import dataclasses
import inspect
import io
import linecache
import sys
import time
import traceback
import types

from grader.core.checks import Failed, fail, type_name
from grader.core.comparison import encode_comparison
from grader.core.report import STDOUT_LIMIT, ReportBuilder
from grader.core.side_effects import side_effect

SUBMISSION_FILENAME = "submission.py"
SCRATCH_FILENAME = "your-calls.py"  # the calls a learner writes to try their code (the page's "Try your code")
TESTS_MODULE = "hidden_tests"
TRACK_MODULE = "_track"  # a track's helpers shared by its tests (AUTHORING.md)
DESCRIPTION_LINES = 20


@dataclasses.dataclass(frozen=True)
class GradingSpec:
    """What the engine needs to know about an exercise."""
    exercise_id: str
    entry: str
    tests_source: str
    tests_filename: str = "tests.py"
    points: dict | None = None  # test name -> what the test is worth (1 when not named)
    track_source: str | None = None  # the track's helper module, which the tests import as `_track` (or None)
    track_filename: str = "_track.py"


@dataclasses.dataclass(frozen=True)
class HiddenTest:
    name: str
    function: types.FunctionType


@dataclasses.dataclass(frozen=True)
class EarlierStep:
    """An earlier step of the track whose entry function the learner's code finds in scope.

    `source` is the learner's own passing code for that step (`yours`) or its reference solution.
    `uses` names (by exercise id) the steps that step's own code finds in scope; they come before it
    in the list given to `load_submission`, which lists every step needed, dependencies first.
    """
    exercise_id: str
    entry: str
    step: int
    source: str
    uses: tuple = ()
    yours: bool = False

    @property
    def label(self):
        """How the learner reads about it: "your causal_attention (step 8)"."""
        return f"{'your' if self.yours else 'the reference'} {self.entry} (step {self.step})"

    @property
    def filename(self):
        return f"step-{self.step}-{self.exercise_id}.py"

    @classmethod
    def from_dict(cls, fields):
        """From JSON-like data (the page's message, the checker's load request)."""
        return cls(exercise_id=str(fields["exercise_id"]), entry=str(fields["entry"]), step=int(fields["step"]),
                   source=str(fields["source"]), uses=tuple(str(u) for u in fields.get("uses", ())),
                   yours=bool(fields.get("yours", False)))

    def to_dict(self):
        return dataclasses.asdict(self)


class TestsError(Exception):
    """The exercise's hidden tests cannot be loaded: the exercise is broken, not the submission."""


class LearnerRaised:
    """Mixed into the exception a test receives when the learner's code raised one.

    `description` is the learner-facing text: the exception and the traceback
    trimmed to the learner's own lines. `context`: what the test says about the call, shown before it.
    """
    description = ""
    context = ""


class TestCodeStopped(BaseException):
    """Raised into a test's own code when it ran out of its time (see `run_tests`' `test_timer`).

    A BaseException, so that a test's `except Exception:` does not swallow it.
    """


class LearnerStopped(BaseException):
    """A call into the learner's code that could not finish (time limit, crash, interference).

    A BaseException, so that a test's `except Exception:` does not swallow it.
    """

    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


def load_tests(spec):
    """Import the hidden tests as module `hidden_tests` (the track's helpers first, as module `_track`) and
    collect them in definition order."""
    sys.modules.pop(TRACK_MODULE, None)  # none is left from another exercise
    if spec.track_source is not None:
        _import_source(TRACK_MODULE, spec.track_filename, spec.track_source,
                       lambda: compile(spec.track_source, spec.track_filename, "exec"),
                       "the track's helper module fails to import")
    module = _import_source(TESTS_MODULE, spec.tests_filename, spec.tests_source, lambda: compile_tests(spec),
                            "hidden tests fail to import")
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


def _import_source(name, filename, source, compiled, failure):
    """Run `compiled()` (the code of `source`) as module `name` in sys.modules; TestsError at the line of `filename`
    where it failed, saying `failure`."""
    _register_source(filename, source)
    module = types.ModuleType(name)
    module.__file__ = filename
    try:
        code = compiled()
        sys.modules[name] = module
        exec(code, module.__dict__)
    except Exception as exc:
        sys.modules.pop(name, None)
        lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
        line = getattr(exc, "lineno", None) if isinstance(exc, SyntaxError) else (lines[-1] if lines else None)
        where = f"{filename}:{line}" if line else filename
        raise TestsError(f"{where}: {failure}: {type(exc).__name__}: {one_line(exc)}") from exc
    return module


_compiled_tests = {}


def compile_tests(spec):
    """The hidden tests' code object, compiled once per process (compiling runs none of their code)."""
    key = (spec.tests_filename, spec.tests_source)
    if key not in _compiled_tests:
        _compiled_tests.clear()  # one exercise at a time: keep only the latest
        _compiled_tests[key] = compile(spec.tests_source, spec.tests_filename, "exec")
    return _compiled_tests[key]


def grade(spec, source, emit=None, earlier=(), authoring=False):
    """Grade `source` in this interpreter (no isolation); return the report (see report.py), an authoring one
    (each test's `learner_ms` and `test_code_error`) when `authoring`."""
    return run_tests(spec, InProcessLearner(spec.entry, source, earlier), emit, authoring=authoring)


def run_tests(spec, learner, emit=None, tests=None, test_timer=None, authoring=False):
    """Run the hidden tests of `spec` against `learner`; emit events and return the report (an authoring one
    when `authoring`, see report.py).

    `learner` has `start(send_output)`, `load()` -> None or (status, message),
    `function` (what the tests call), `begin_test()` (each test's own clock starts),
    `out_of_time()` -> None or a message, and `stop()`.
    `test_timer`, when given, bounds the tests' own code (not the learner's calls): `start()` and `stop()`
    around each test, `pause()` and `resume()` around each call into the learner's code, and `used_up()`
    -> None or why no time is left; it stops a test by raising TestCodeStopped into it.
    """
    tests = tests if tests is not None else load_tests(spec)
    builder = ReportBuilder(spec.exercise_id, [t.name for t in tests], spec.points, authoring=authoring)
    current_test = [None]

    def send(event):
        builder.add(event)
        if emit is not None:
            emit(event)

    def send_output(text):
        send({"event": "stdout", "text": text, "test": current_test[0]})

    send({"event": "start", "exercise": spec.exercise_id, "tests": [t.name for t in tests]})
    learner.start(send_output)
    try:
        problem = learner.load()
        if problem is None:
            send({"event": "loaded", "error": None})
            entry = _TimedEntry(learner.function, spec.entry, test_timer)
        else:
            send({"event": "loaded", "error": problem[1], "status": problem[0]})
        for index, test in enumerate(tests if problem is None else ()):
            current_test[0] = index
            send({"event": "test_start", "index": index})
            started = time.perf_counter()
            entry.seconds = 0.0
            learner.begin_test()
            exhausted = learner.out_of_time()
            timer_used_up = test_timer.used_up() if test_timer is not None else None
            comparison, test_code_error = None, None
            if exhausted is not None:
                status, message = "timeout", f"Not run: {exhausted}"
            elif timer_used_up is not None:
                status, message = "error", f"Not graded: the exercise has a bug: not run, {timer_used_up}."
                test_code_error = {"line": None, "kind": "not run", "traceback": f"not run: {timer_used_up}"}
            else:
                try:
                    if test_timer is not None:
                        test_timer.start()
                    try:
                        test.function(entry.function)
                    finally:
                        if test_timer is not None:
                            test_timer.stop()
                    status, message = "passed", ""
                except BaseException as exc:  # the learner's code may raise anything, SystemExit included
                    status, message, test_code_error = _verdict(exc, spec.tests_filename)
                    if isinstance(exc, Failed):
                        comparison = _comparison(exc)
            duration_ms = (time.perf_counter() - started) * 1000
            result = {"event": "test", "index": index, "status": status, "message": message,
                      "duration_ms": duration_ms, "learner_ms": min(entry.seconds * 1000, duration_ms)}
            if comparison is not None:
                result["comparison"] = comparison
            if test_code_error is not None:
                result["test_code_error"] = test_code_error
            send(result)
            current_test[0] = None
    finally:
        learner.stop()
    send({"event": "done"})
    return builder.finish()


class _TimedEntry:
    """The learner's function as the tests get it: a plain function that adds up the time spent in it
    (`seconds`) and pauses the tests' own timer while it runs."""

    def __init__(self, learner_function, name, test_timer):
        self.seconds = 0.0

        def function(*args, **kwargs):
            if test_timer is not None:
                test_timer.pause()
            started = time.perf_counter()
            try:
                return learner_function(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started
                if test_timer is not None:
                    test_timer.resume()
        function.__name__ = function.__qualname__ = name
        self.function = function


def _comparison(failure):
    """The arrays a failed check passed along, as data (None when there are none to draw)."""
    try:
        return encode_comparison(failure.got, failure.expected)
    except Exception:  # a picture that cannot be made must not change the verdict
        return None


def _verdict(exc, tests_filename):
    """(status, message, test_code_error or None) for an exception that ended a test."""
    if isinstance(exc, LearnerStopped):
        return exc.status, exc.message, None
    if isinstance(exc, LearnerRaised):
        # The description may come from the learner's process: the words that introduce it are the engine's.
        context = f"{exc.context}\n" if exc.context else ""
        return "error", f"{context}Your code raised {exc.description}", None
    frames = _frames(exc)
    if isinstance(exc, KeyboardInterrupt) or any(_is_learners(frame.filename) for frame in frames):
        # Raised by the learner's code outside a call (a method of the result it returned), or a stop.
        return "error", f"Your result raised {type_name(exc)} while it was checked: {one_line(exc)}", None
    if isinstance(exc, Failed):
        return "failed", str(exc), None
    if isinstance(exc, AssertionError):
        return "failed", str(exc) or _failed_assert_line(exc.__traceback__), None
    ours = [frame for frame in frames if frame.filename == tests_filename]
    line = ours[-1].lineno if ours else None
    where = f"{tests_filename}:{line}" if line else tests_filename
    what = f"{type(exc).__name__}: {one_line(exc)}" if not isinstance(exc, TestCodeStopped) else one_line(exc)
    shown = [frame for frame in frames if not frame.filename.endswith("engine.py")]
    if isinstance(exc, TestCodeStopped) and ours:
        shown = shown[:shown.index(ours[-1]) + 1]  # where the test was, not the timer that stopped it
    trace = "".join(traceback.format_list(shown))
    error = {"line": line, "kind": "stopped" if isinstance(exc, TestCodeStopped) else "raised",
             "traceback": f"{where}: {what}\nTraceback (most recent call last):\n{trace}".rstrip()}
    if isinstance(exc, TestCodeStopped):
        message = (f"Not graded: the exercise has a bug: this test could not finish: {one_line(exc)} (stopped at "
                   f"{_basename(where)}). Your code is not at fault.")
    else:
        message = (f"Not graded: the exercise has a bug (its test code raised {type(exc).__name__} at "
                   f"{_basename(where)}); your code is not at fault.")
    return "error", message, error


def _frames(exc):
    try:
        return traceback.extract_tb(exc.__traceback__)
    except Exception:
        return []


def _is_learners(filename):
    return filename in (SUBMISSION_FILENAME, SCRATCH_FILENAME) or filename in _earlier_labels


def _basename(where):
    """'tests.py:57' for 'exercises/dropout/tests.py:57': learners see where, not the author's folders."""
    return where.replace("\\", "/").rsplit("/", 1)[-1]


class InProcessLearner:
    """The learner's code run in this interpreter, beside the tests."""

    def __init__(self, entry_name, source, earlier=()):
        self.entry_name, self.source, self.earlier = entry_name, source, tuple(earlier)
        self.function = None
        self._streams = None

    def start(self, send_output):
        self._streams = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = CappedOutput(send_output)

    def stop(self):
        if self._streams is not None:
            sys.stdout, sys.stderr = self._streams
            self._streams = None

    def load(self):
        entry, error = load_submission(self.entry_name, self.source, self.earlier)
        if error is not None:
            return ("error", error)
        deepcopy = copy.deepcopy

        def learner_function(*args, **kwargs):
            # The test's own values never reach the learner's code. Each argument is copied on its own, as
            # offline where each crosses the wire separately: f(q, q) gets two arrays, never one array twice.
            passed = tuple(deepcopy(value) for value in args), {name: deepcopy(value) for name, value in kwargs.items()}
            try:
                result = entry(*passed[0], **passed[1])
            except BaseException as exc:
                raise as_learner_exception(exc) from None
            problem = side_effect(entry, (args, kwargs), passed, result)
            if problem is not None:
                fail(problem)
            return result
        learner_function.__name__ = self.entry_name
        self.function = learner_function
        return None

    def begin_test(self):
        pass  # whoever runs this interpreter enforces the time limits by stopping it

    def out_of_time(self):
        return None


def python_source(text):
    """The learner's code as Python reads it from a file: without a leading UTF-8 byte-order mark (U+FEFF,
    which Windows editors write), which `python3 file.py` skips but `compile` of a str refuses."""
    return text.removeprefix("\ufeff")


def load_submission(entry_name, source, earlier=()):
    """Run the learner's module, the earlier steps' entry functions in scope; return (entry function, None)
    or (None, error message)."""
    scope, error = load_earlier(earlier)
    if error is not None:
        return None, error
    source = python_source(source)
    try:
        code = compile(source, SUBMISSION_FILENAME, "exec")
    except SyntaxError as exc:
        where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
        return None, f"{type(exc).__name__} on {where}: {exc.msg}"
    except (ValueError, MemoryError, RecursionError) as exc:  # e.g. null bytes, absurdly nested code
        return None, f"Your code could not be compiled: {one_line(exc)}"
    _register_source(SUBMISSION_FILENAME, source)
    module = types.ModuleType("submission")
    module.__file__ = SUBMISSION_FILENAME
    module.__dict__.update(scope)
    try:
        exec(code, module.__dict__)
    except BaseException as exc:
        return None, "Your code raised an error while loading (before any test ran):\n" + describe_exception(exc)
    entry = module.__dict__.get(entry_name)
    if entry is None:
        return None, f"Your code does not define a function named `{entry_name}`."
    if not callable(entry):
        return None, f"`{entry_name}` should be a function, but your code makes it a {type_name(entry)}."
    return entry, None


_earlier_labels = {}  # filename of an earlier step's code -> its EarlierStep, for tracebacks


def load_earlier(earlier):
    """Run each earlier step's code in a namespace of its own, with the entry functions of the steps it
    uses in scope; return ({entry name: function} for all of them, None) or (None, error message)."""
    _earlier_labels.clear()
    functions = {}  # exercise id -> its entry function
    needs = {}      # exercise id -> ids of every step its code needs in scope (what it uses, in turn)
    for step in earlier:
        _earlier_labels[step.filename] = step
        needs[step.exercise_id] = set(step.uses).union(*(needs.get(used, ()) for used in step.uses))
        missing = [used for used in needs[step.exercise_id] if used not in functions]
        if missing:
            return None, (f"{step.label.capitalize()} needs {', '.join(sorted(missing))}, which is not loaded "
                          "before it (the exercise's list of earlier steps is out of order).")
        module = types.ModuleType(step.exercise_id)
        module.__file__ = step.filename
        for used in earlier:
            if used.exercise_id in needs[step.exercise_id]:
                module.__dict__[used.entry] = functions[used.exercise_id]
        source = python_source(step.source)
        _register_source(step.filename, source)
        try:
            exec(compile(source, step.filename, "exec"), module.__dict__)
        except BaseException as exc:  # the learner's earlier code may raise anything, as their own does
            return None, (f"{step.label.capitalize()}, which this step uses, raised an error while loading "
                          f"(before any test ran):\n{describe_exception(exc)}")
        function = module.__dict__.get(step.entry)
        if not callable(function):
            return None, f"{step.label.capitalize()}, which this step uses, does not define a function `{step.entry}`."
        functions[step.exercise_id] = function
    return {step.entry: functions[step.exercise_id] for step in earlier}, None


def try_code(source, calls, earlier=()):
    """Run the learner's code, then `calls` (code they wrote to try it) in the same namespace.

    What they print goes to sys.stdout. Returns None, or what went wrong, the traceback
    trimmed to the learner's code and their calls. Grades nothing: the page's "Try your code".
    """
    scope, error = load_earlier(earlier)
    if error is not None:
        return error
    module = types.ModuleType("submission")
    module.__file__ = SUBMISSION_FILENAME
    module.__dict__.update(scope)
    for filename, code, what in ((SUBMISSION_FILENAME, python_source(source), "your code"),
                                 (SCRATCH_FILENAME, calls, "your calls")):
        try:
            compiled = compile(code, filename, "exec")
        except SyntaxError as exc:
            where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
            return f"{type(exc).__name__} in {what} on {where}: {exc.msg}"
        except (ValueError, MemoryError, RecursionError) as exc:
            return f"{what.capitalize()} could not be compiled: {one_line(exc)}"
        _register_source(filename, code)
        try:
            exec(compiled, module.__dict__)
        except BaseException as exc:  # the learner's code may raise anything, SystemExit included
            return describe_exception(exc)
    return None


# ---- the learner's exceptions, as tests see them --------------------------------------------------

BUILTIN_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
                      if isinstance(value, type) and issubclass(value, BaseException)}
_learner_classes = {}


def builtin_bases(exc):
    """Names of the built-in exception classes `exc` is an instance of, most derived first."""
    return [cls.__name__ for cls in type(exc).__mro__ if BUILTIN_EXCEPTIONS.get(cls.__name__) is cls]


def as_learner_exception(exc):
    """The exception a test receives for `exc`, raised by the learner's code."""
    return learner_exception(builtin_bases(exc), one_line(exc), describe_exception(exc))


def learner_exception(base_names, message, description):
    """A LearnerRaised exception that is an instance of the built-in classes named in `base_names`.

    Unknown names are ignored, so the names may come from an untrusted process.
    """
    bases = [BUILTIN_EXCEPTIONS[name] for name in base_names if name in BUILTIN_EXCEPTIONS]
    # Keep the most derived ones: a class listed with one of its subclasses adds nothing.
    bases = tuple(b for b in dict.fromkeys(bases) if not any(o is not b and issubclass(o, b) for o in bases))
    candidates = [bases] + [(cls,) for cls in (bases[0].__mro__ if bases else ())] + [(Exception,)]
    for candidate in candidates:
        if not candidate or not issubclass(candidate[0], BaseException):
            continue
        try:
            cls = _learner_classes.get(candidate)
            if cls is None:
                cls = type(candidate[0].__name__, (LearnerRaised, *candidate), {"__module__": "builtins"})
                _learner_classes[candidate] = cls
            exc = cls(message)
        except TypeError:  # layout conflicts, or a constructor that wants more than a message
            continue
        exc.description = description
        return exc
    raise AssertionError("unreachable: Exception(message) always works")


def describe_exception(exc):
    """A learner-facing message: what happened, and the traceback trimmed to the learner's code."""
    if isinstance(exc, SystemExit):
        headline = f"SystemExit ({one_line(exc) or 'no status'}): exit was called; return the result instead of exiting."
    elif isinstance(exc, KeyboardInterrupt):
        headline = "KeyboardInterrupt."
    elif isinstance(exc, MemoryError):
        headline = f"MemoryError: your code ran out of memory. {one_line(exc)}".rstrip()
    else:
        name = type_name(exc)
        builtin = builtin_bases(exc)
        if builtin and builtin[0] != name and builtin[0] != "Exception":
            name += f" (a kind of {builtin[0]})"
        headline = f"{name}: {one_line(exc)}"
    try:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if _is_learners(f.filename)]
    except Exception:
        frames = []
    if not frames:
        return headline
    raised_in = _earlier_labels.get(frames[-1].filename)
    if raised_in is not None:
        headline += f"\n(raised in {raised_in.label}, which this step uses)"
    lines = [headline, "Traceback (your code, most recent call last):"]
    # A reference's calls to its own helpers stay hidden: one line for each stay in a reference.
    shown = [_frame_line(frame) for previous, frame in zip([None, *frames], frames)
             if not (previous is not None and frame.filename == previous.filename and _is_reference(frame))]
    index = 0
    while index < len(shown):
        repeats = 1
        while index + repeats < len(shown) and shown[index + repeats] == shown[index]:
            repeats += 1
        lines.append(shown[index])
        if repeats > 1:
            lines.append(f"  [the line above repeated {repeats - 1} more times]")
        index += repeats
    return "\n".join(lines[:DESCRIPTION_LINES])


def _is_reference(frame):
    earlier = _earlier_labels.get(frame.filename)
    return earlier is not None and not earlier.yours


def _frame_line(frame):
    """One line of a learner-facing traceback. A reference's lines are not shown, only where it was."""
    earlier = _earlier_labels.get(frame.filename)
    if _is_reference(frame):
        return f"  in {earlier.label}"
    where = {SUBMISSION_FILENAME: "", SCRATCH_FILENAME: " of your calls"}.get(frame.filename)
    if where is None:
        where = f" of {earlier.label}"
    return f"  line {frame.lineno}{where}, in {frame.name}: {(frame.line or '').strip()}"


def _failed_assert_line(tb):
    frames = traceback.extract_tb(tb)
    if frames:
        return f"Check failed: {(frames[-1].line or '').strip()}"
    return "Check failed."


def _register_source(filename, source):
    """Let tracebacks show lines of code that exists only as a string (never read a same-named file)."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def one_line(exc):
    """str(exc) on one line, cut short; never raises, whatever the exception's __str__ does."""
    try:
        text = str(exc)
        text = text if type(text) is str else "<unprintable>"
    except BaseException:
        text = "<unprintable>"
    return " ".join(text[:2000].split())[:500]


class CappedOutput(io.TextIOBase):
    """Stands in for sys.stdout/sys.stderr: forwards the learner's prints, up to a limit."""

    def __init__(self, send_output):
        self._send_output = send_output
        self._written = 0

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type_name(text)}")
        if self._written <= STDOUT_LIMIT:
            # One character past the limit tells the report builder to mark the output truncated.
            chunk = text[:STDOUT_LIMIT - self._written + 1]
            self._written += len(chunk)
            self._send_output(chunk)
        return len(text)

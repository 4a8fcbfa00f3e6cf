"""Build the grading report from the engine's stream of events.

The engine emits events as it goes:
    {"event": "start", "exercise": str, "tests": [str]}
    {"event": "loaded", "error": str | None, "status": "error" | "timeout"}   status only with an error
    {"event": "stdout", "text": str, "test": int | None}   what the learner's code printed, during that test
    {"event": "test_start", "index": int}
    {"event": "test", "index": int, "status": str, "message": str, "duration_ms": float,
     "comparison": COMPARISON,     optional: the arrays of a failed check (see comparison.py)
     "learner_ms": float,          optional: how much of duration_ms the learner's calls took
     "test_code_error": TEST_CODE_ERROR}   optional: the test's own code raised, or ran out of time
    TEST_CODE_ERROR = {"line": int | None (of tests.py), "traceback": str,
                       "kind": "raised" | "stopped" | "not run" (an earlier test used up the tests' time)}
    {"event": "aborted", "error": str}      grading could not go on (the remaining tests are not run)
    {"event": "done"}
Whoever watches a run from outside (the CLI's parent process, the page) feeds
them to a `ReportBuilder`, so that a run killed for its time limit or crashed
still yields a full report: finished tests keep their verdict, the running one
and those not yet started get the interruption's.  Events are checked strictly;
a malformed one raises `InvalidEvent`, so no sender can make the builder crash
or produce a report that is not valid JSON.

Report schema (also what `python -m grader check --json` prints):
    {"exercise": str, "passed": bool, "error": str | None,
     "tests": [{"name", "status", "message", "duration_ms", "stdout", "score", "max_score",
                "comparison"}], "stdout": str,
     "score": number, "max_score": number}
A test has `comparison` only when its event had one, and `"exercise_bug": true` only when its event had a
`test_code_error`: the engine found that the test's own code failed (raised, ran out of time, or was not run
because an earlier test's code used up the tests' time), which the learner's code cannot make it say (see
engine.py).  Such a test is not graded: it earns nothing and is left out of `max_score`; it never counts
against the learner.  An authoring report (`ReportBuilder(..., authoring=True)`, what `validate` reads) also
gives each test `learner_ms` and, when its event had one, `test_code_error`; a learner's report leaves them
out (the page's twin, report.js, ignores `learner_ms`).
A test is worth its points (`points`, by test name; 1 when not named): `score` is what a passed test
earns, 0 otherwise; `max_score` is its worth.  The report's `score` adds up the tests' scores and its
`max_score` the worth of the graded tests (those without `exercise_bug`), in test order.  `passed`: no error,
every graded test passed, and at least one did (a run whose every test is the exercise's bug grades nothing).
`stdout` of a test is what the learner's code printed while that test ran; the
report's `stdout` is everything it printed, loading included.
"""

import math

STATUSES = ("passed", "failed", "error", "timeout")
STDOUT_LIMIT = 32_000
MESSAGE_LIMIT = 20_000
COMPARISON_MAX_SIDE = 64     # a compared 2-D array is downsampled to at most this many rows and columns
COMPARISON_MAX_LENGTH = 512  # and a 1-D one to this many entries
NON_FINITE = ("nan", "inf", "-inf")  # how a compared array spells the numbers JSON cannot carry
TRUNCATED = "\n[output truncated: more than {} characters]\n".format(STDOUT_LIMIT)


class InvalidEvent(ValueError):
    """An event that does not follow the schema above."""


class ReportBuilder:
    def __init__(self, exercise_id, test_names, points=None, authoring=False):
        self.exercise_id, self.authoring = exercise_id, authoring
        self.test_names = list(test_names)
        self.points = [(points or {}).get(name, 1) for name in self.test_names]
        self.results = {}
        self.running = None
        self.loaded = False
        self.error = None
        self.load_status = "error"
        self.aborted = None
        self.done = False
        self._stdout = _Output()
        self._test_stdout = {}

    def add(self, event):
        if type(event) is not dict:
            raise InvalidEvent("an event must be an object")
        kind = event.get("event")
        if kind == "stdout":
            test = event.get("test")
            if test is not None:
                self._index(test)
            text = _text(event, "text")
            self._stdout.add(text)
            if test is not None:
                self._test_stdout.setdefault(test, _Output()).add(text)
        elif kind == "loaded":
            error = event.get("error")
            if error is not None:
                error = _text(event, "error", MESSAGE_LIMIT)
                self.load_status = event.get("status", "error")
                if self.load_status not in ("error", "timeout"):
                    raise InvalidEvent(f"invalid load status {self.load_status!r}"[:200])
            self.loaded, self.error = True, error
        elif kind == "test_start":
            self.running = self._index(event.get("index"))
        elif kind == "test":
            index = self._index(event.get("index"))
            status = event.get("status")
            if status not in STATUSES:
                raise InvalidEvent(f"invalid status {status!r}"[:200])
            duration = event.get("duration_ms")
            if type(duration) not in (int, float) or not math.isfinite(duration) or duration < 0:
                raise InvalidEvent(f"invalid duration {duration!r}"[:200])
            result = _result(self.test_names[index], status, _text(event, "message"), duration)
            if "comparison" in event:
                result["comparison"] = _comparison(event["comparison"])
            code_error = _test_code_error(event)
            if code_error is not None:
                if status != "error":
                    raise InvalidEvent("a test whose own code failed is an error")
                result["exercise_bug"] = True
            if self.authoring:
                result.update(_authoring_fields(event, duration, code_error))
            self.results[index] = result
            self.running = None
        elif kind == "aborted":
            self.aborted = _text(event, "error", MESSAGE_LIMIT)
        elif kind == "done":
            self.done = True
        elif kind != "start":
            raise InvalidEvent(f"unknown event {kind!r}"[:200])

    def _index(self, index):
        if type(index) is not int or not 0 <= index < len(self.test_names):
            raise InvalidEvent(f"test index {index!r} out of range"[:200])
        return index

    def finish(self, interruption=None, exercise_bug=False):
        """The report.  `interruption` is (status, message) when the run did not reach its end; `exercise_bug`
        when what ended it is the exercise's (the page stopped the tests' own code): the test that was
        running and those not run are then not graded."""
        error = self.error
        if not self.loaded:
            status, message = interruption or ("error", "Grading stopped before your code was loaded.")
            error = f"{message} (while loading your code)"
            not_run = (status, f"Not run: {message}")
        elif error is not None:
            not_run = (self.load_status, "Not run: your code could not be loaded.")
        elif self.aborted is not None:
            error = self.aborted
            not_run = ("error", f"Not run: {self.aborted}")
        elif interruption is not None:
            not_run = (interruption[0], f"Not run: {interruption[1]}")
        else:
            not_run = ("error", "Not run: grading ended early.")
        tests = []
        for index, name in enumerate(self.test_names):
            if index in self.results:
                test = self.results[index]
            elif index == self.running and interruption is not None:
                test = _result(name, interruption[0], interruption[1])
            else:
                test = _result(name, *not_run)
            if exercise_bug and self.loaded and self.error is None and index not in self.results:
                test["exercise_bug"] = True
            output = self._test_stdout.get(index)
            worth = self.points[index]
            tests.append({**test, "stdout": output.text() if output else "",
                          "score": worth if test["status"] == "passed" else 0, "max_score": worth})
        return {"exercise": self.exercise_id, "passed": passes(error, tests), "error": error,
                "tests": tests, "stdout": self._stdout.text(), "score": _total(t["score"] for t in tests),
                "max_score": _total(t["max_score"] for t in tests if not t.get("exercise_bug"))}


def passes(error, tests):
    """Whether a report with `error` and `tests` passes: no error, every graded test passed, and one at least."""
    graded = [test["status"] for test in tests if not test.get("exercise_bug")]
    return error is None and bool(graded) and all(status == "passed" for status in graded)


class _Output:
    """Printed text, capped at STDOUT_LIMIT characters with a note when cut."""

    def __init__(self):
        self._parts = []
        self._size = 0

    def add(self, text):
        room = STDOUT_LIMIT - self._size
        if room < 0 or not text:  # already cut, or nothing to add (a full buffer still gets the note)
            return
        if len(text) > room:
            text = text[:room] + TRUNCATED
        self._parts.append(text)
        self._size += len(text)

    def text(self):
        return "".join(self._parts)


def _comparison(value):
    """`value` if it is a valid COMPARISON (see comparison.py), else InvalidEvent."""
    if type(value) is not dict or set(value) != {"got", "expected"}:
        raise InvalidEvent("comparison must be an object with got and expected")
    for array in value.values():
        if array is not None:
            _check_array(array)
    return value


def _check_array(array):
    if type(array) is not dict or set(array) != {"shape", "step", "values"}:
        raise InvalidEvent("a compared array must have shape, step and values")
    shape, step, values = array["shape"], array["step"], array["values"]
    if (type(shape) is not list or type(step) is not list or len(shape) not in (1, 2) or len(step) != len(shape)
            or any(type(n) is not int or n < 1 for n in shape + step)):
        raise InvalidEvent("a compared array's shape and step must be 1 or 2 positive integers")
    sizes = [-(-n // s) for n, s in zip(shape, step)]  # entries kept along each axis
    if max(sizes) > (COMPARISON_MAX_LENGTH if len(shape) == 1 else COMPARISON_MAX_SIDE):
        raise InvalidEvent("a compared array is larger than allowed")
    rows = [values] if len(shape) == 1 else values
    if type(rows) is not list or len(rows) != (1 if len(shape) == 1 else sizes[0]):
        raise InvalidEvent("a compared array's values do not match its shape")
    for row in rows:
        if type(row) is not list or len(row) != sizes[-1] or not all(
                type(x) in (int, float) and math.isfinite(x) or x in NON_FINITE for x in row):
            raise InvalidEvent("a compared array's values do not match its shape")


def _test_code_error(event):
    """The event's `test_code_error`, checked, or None."""
    error = event.get("test_code_error")
    if error is None:
        return None
    line = error.get("line") if type(error) is dict else None
    if (type(error) is not dict or set(error) != {"line", "kind", "traceback"}
            or not (line is None or type(line) is int) or error["kind"] not in ("raised", "stopped", "not run")):
        raise InvalidEvent("test_code_error must be an object with line, kind and traceback")
    return {"line": line, "kind": error["kind"], "traceback": _text(error, "traceback", MESSAGE_LIMIT)}


def _authoring_fields(event, duration, code_error):
    """`learner_ms` (0 when the event has none), checked, and `test_code_error` when there is one."""
    learner = event.get("learner_ms", 0.0)
    if type(learner) not in (int, float) or not 0 <= learner <= duration:
        raise InvalidEvent(f"invalid learner_ms {learner!r}"[:200])
    fields = {"learner_ms": round(float(learner), 3)}
    if code_error is not None:
        fields["test_code_error"] = code_error
    return fields


def _text(event, key, limit=None):
    value = event.get(key, "")
    if type(value) is not str:
        raise InvalidEvent(f"{key} must be a string")
    return clean_text(value, limit)


def clean_text(text, limit=None):
    """`text` as valid Unicode (lone surrogates replaced), cut to `limit` characters."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + " [cut]"
    return text.encode("utf-8", "replace").decode("utf-8")


def _total(numbers):
    total = 0
    for number in numbers:  # added in order, as report.js does, so both get the same float
        total += number
    return total


def _result(name, status, message, duration_ms=0.0):
    return {"name": name, "status": status, "message": clean_text(message, MESSAGE_LIMIT),
            "duration_ms": round(float(duration_ms), 3)}

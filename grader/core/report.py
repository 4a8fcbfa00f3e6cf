"""Build the grading report from the engine's stream of events.

The engine emits events as it goes (`start`, `loaded`, `stdout`, `test_start`,
`test`, `aborted`, `done`).  Whoever watches a run from outside (the CLI's
parent process) feeds them to a `ReportBuilder`, so that a run killed for its
time limit or crashed still yields a full report: finished tests keep their
verdict, the running one and those not yet started get the interruption's.

Report schema (also what `python -m grader check --json` prints):
    {"exercise": str, "passed": bool, "error": str | None,
     "tests": [{"name", "status", "message", "duration_ms"}], "stdout": str}
"""

STATUSES = ("passed", "failed", "error", "timeout")
STDOUT_LIMIT = 32_000
TRUNCATED = "\n[output truncated: more than {} characters]\n".format(STDOUT_LIMIT)


class ReportBuilder:
    def __init__(self, exercise_id, test_names):
        self.exercise_id = exercise_id
        self.test_names = list(test_names)
        self.results = {}
        self.running = None
        self.loaded = False
        self.error = None
        self.aborted = None
        self.done = False
        self._stdout = []
        self._stdout_size = 0

    def add(self, event):
        kind = event.get("event")
        if kind == "stdout":
            self._add_stdout(str(event.get("text", "")))
        elif kind == "loaded":
            self.loaded = True
            self.error = event.get("error")
        elif kind == "test_start":
            self.running = event["index"]
        elif kind == "test":
            index = event["index"]
            self.results[index] = _test_result(self.test_names[index], event)
            self.running = None
        elif kind == "aborted":
            self.aborted = str(event["error"])
        elif kind == "done":
            self.done = True

    def _add_stdout(self, text):
        room = STDOUT_LIMIT - self._stdout_size
        if room <= 0:
            return
        if len(text) > room:
            text = text[:room] + TRUNCATED
        self._stdout.append(text)
        self._stdout_size += len(text)

    def finish(self, interruption=None):
        """The report.  `interruption` is (status, message) when the run did not reach its end."""
        error = self.error
        if not self.loaded:
            status, message = interruption or ("error", "Grading stopped before your code was loaded.")
            error = f"{message} (while loading your code)"
            not_run = (status, f"Not run: {message}")
        elif error is not None:
            not_run = ("error", "Not run: your code could not be loaded.")
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
                tests.append(self.results[index])
            elif index == self.running and interruption is not None:
                tests.append(_result(name, interruption[0], interruption[1]))
            else:
                tests.append(_result(name, *not_run))
        passed = error is None and all(t["status"] == "passed" for t in tests)
        return {"exercise": self.exercise_id, "passed": passed, "error": error,
                "tests": tests, "stdout": "".join(self._stdout)}


def _test_result(name, event):
    status = event.get("status")
    if status not in STATUSES:
        return _result(name, "error", f"Invalid status {status!r} reported by the grader.")
    return _result(name, status, str(event.get("message", "")), float(event.get("duration_ms", 0.0)))


def _result(name, status, message, duration_ms=0.0):
    return {"name": name, "status": status, "message": message, "duration_ms": round(duration_ms, 3)}

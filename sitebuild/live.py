"""Live preview for `python build.py serve`: rebuild whenever a source file changes.

A watchfiles watcher (inotify and the like, polling where there is none) groups
the writes of one save into one rebuild. Nothing a rebuild raises stops the
watching: the error goes to the terminal and to the shared `BuildState`, which
the pages read through the server (see site/js/live-reload.js) to show it, and
the next good build clears it.

A rebuild does not wait for validation: the pages reload at once, and each exercise whose validation
the cache does not hold (the one just edited) is validated in a thread of its own (`Validations`), so
a slow one holds up neither the pages nor the other exercises; its problem shows like a build error
until a save fixes it.
"""

import dataclasses
import threading
import time
import traceback
import watchfiles

from sitebuild import BuildError, shown_path
from sitebuild.cache import DiskCache
from sitebuild.pipeline import build_site
from sitebuild.validation import Validator, grading_inputs
from toolchain.cache import cache_root

# Writes closer together than STEP_MS are one change (an editor saving in steps), grouped for at most DEBOUNCE_MS.
STEP_MS = 300
DEBOUNCE_MS = 1600
RETRY_SECONDS = 2  # before watching again when the watcher itself failed (e.g. a watched folder went away)


class BuildState:
    def __init__(self):
        self._lock = threading.Lock()
        self.generation = 0
        self.error = None
        self.invalid = {}  # exercise id -> its validation's first problem

    def succeeded(self):
        with self._lock:
            self.generation += 1
            self.error = None

    def failed(self, message):
        with self._lock:
            self.error = message

    def validated(self, exercise_id, problem):
        """Record an exercise's validation: `problem` is None when it passed."""
        with self._lock:
            self.invalid.pop(exercise_id, None)
            if problem is not None:
                self.invalid[exercise_id] = problem

    def forget_all_but(self, exercise_ids):
        """Drop the validation problems of exercises no longer built (deleted, renamed)."""
        with self._lock:
            for exercise_id in set(self.invalid) - set(exercise_ids):
                del self.invalid[exercise_id]

    def snapshot(self):
        with self._lock:
            error = self.error or next((self.invalid[key] for key in sorted(self.invalid)), None)
            return {"generation": self.generation, "error": error}


class Validations:
    """Validate exercises in the background, one thread each; a result made stale by a newer save is dropped."""

    def __init__(self, options, state, log):
        self.cache_folder = (options.cache_dir or cache_root()) / "validation"
        self.state, self.log = state, log
        self._lock = threading.Lock()
        self._wanted = {}  # exercise id -> the grading inputs of its latest version

    def start(self, report):
        """Validate the exercises `report` (a BuildReport) left unvalidated; those it found valid in the cache
        are valid (a validation of an older version of one of them is dropped).  The problems of exercises
        the build no longer has go, and so do their validations under way."""
        built = {*report.validated, *report.from_cache, *(exercise.id for exercise in report.unvalidated)}
        self.state.forget_all_but(built)
        with self._lock:
            for exercise_id in set(self._wanted) - built:
                del self._wanted[exercise_id]
            for exercise_id in report.from_cache:
                self._wanted.pop(exercise_id, None)
                self.state.validated(exercise_id, None)
        for exercise in report.unvalidated:
            inputs = grading_inputs(exercise)
            with self._lock:
                if self._wanted.get(exercise.id) == inputs:
                    continue  # already being validated as it is
                self._wanted[exercise.id] = inputs
            threading.Thread(target=self._validate, args=(exercise, inputs), daemon=True).start()

    def _validate(self, exercise, inputs):
        started = time.perf_counter()
        try:
            Validator(DiskCache(self.cache_folder)).check(exercise)
            problem = None
        except BuildError as exc:
            problem = str(exc)
        except Exception as exc:  # a bug in validation must not end the preview
            problem = describe(exc)
        with self._lock:
            if self._wanted.get(exercise.id) != inputs:
                return  # a newer save is being validated
            del self._wanted[exercise.id]
        self.state.validated(exercise.id, problem)
        self.log(f"error: {problem}" if problem else
                 f"Validated {exercise.id} in {time.perf_counter() - started:.2f} s.")


def watch(options, folders, state, log=print, stop=None):
    """Rebuild into options.out_dir after each change under `folders`, until `stop` (an Event) is set."""
    stop = stop or threading.Event()
    validations = Validations(options, state, log)
    while not stop.is_set():
        try:
            for changes in watchfiles.watch(*folders, step=STEP_MS, debounce=DEBOUNCE_MS, stop_event=stop):
                rebuild(options, state, sorted({path for _, path in changes}), log, validations)
        except Exception as exc:  # the watcher itself failed: say so, then watch again
            message = f"the file watcher stopped: {describe(exc)}"
            state.failed(message)
            log(f"error: {message}; watching again in {RETRY_SECONDS} s")
            stop.wait(RETRY_SECONDS)


def rebuild(options, state, changed, log=print, validations=None):
    """Build once; report success or any error (foreseen or not) to `state` and `log`, never raise.
    With `validations`, the build does not validate: it hands the exercises that need it over."""
    try:
        report = build_site(dataclasses.replace(options, validate=validations is None))
    except BuildError as exc:
        message = str(exc)
    except Exception as exc:  # a bug in the build: the preview must survive it and say where it happened
        message = f"{describe(exc)}, after a change to {', '.join(shown_path(path) for path in changed)}"
    else:
        state.succeeded()
        log(f"Rebuilt {report.exercises} exercise{'s' if report.exercises != 1 else ''} in {report.seconds:.2f} s "
            f"({report.summary()}); open pages reload.")
        if validations is not None:
            validations.start(report)
        return
    state.failed(message)
    log(f"error: {message}")


def describe(exc):
    """'unexpected RuntimeError: message (at path/file.py:12)', the innermost frame's place."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {shown_path(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    return f"unexpected {type(exc).__name__}: {exc}{where}"

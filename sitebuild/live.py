"""Live preview for `python build.py serve`: rebuild whenever a source file changes.

A watchfiles watcher (inotify and the like, polling where there is none) groups
the writes of one save into one rebuild. Nothing a rebuild raises stops the
watching: the error goes to the terminal and to the shared `BuildState`, which
the pages read through the server (see site/js/live-reload.js) to show it, and
the next good build clears it.
"""

import threading
import traceback
import watchfiles

from sitebuild import BuildError, shown_path
from sitebuild.pipeline import build_site

# Writes closer together than STEP_MS are one change (an editor saving in steps), grouped for at most DEBOUNCE_MS.
STEP_MS = 300
DEBOUNCE_MS = 1600
RETRY_SECONDS = 2  # before watching again when the watcher itself failed (e.g. a watched folder went away)


class BuildState:
    def __init__(self):
        self._lock = threading.Lock()
        self.generation = 0
        self.error = None

    def succeeded(self):
        with self._lock:
            self.generation += 1
            self.error = None

    def failed(self, message):
        with self._lock:
            self.error = message

    def snapshot(self):
        with self._lock:
            return {"generation": self.generation, "error": self.error}


def watch(options, folders, state, log=print, stop=None):
    """Rebuild into options.out_dir after each change under `folders`, until `stop` (an Event) is set."""
    stop = stop or threading.Event()
    while not stop.is_set():
        try:
            for changes in watchfiles.watch(*folders, step=STEP_MS, debounce=DEBOUNCE_MS, stop_event=stop):
                rebuild(options, state, sorted({path for _, path in changes}), log)
        except Exception as exc:  # the watcher itself failed: say so, then watch again
            message = f"the file watcher stopped: {describe(exc)}"
            state.failed(message)
            log(f"error: {message}; watching again in {RETRY_SECONDS} s")
            stop.wait(RETRY_SECONDS)


def rebuild(options, state, changed, log=print):
    """Build once; report success or any error (foreseen or not) to `state` and `log`, never raise."""
    try:
        report = build_site(options)
    except BuildError as exc:
        message = str(exc)
    except Exception as exc:  # a bug in the build: the preview must survive it and say where it happened
        message = f"{describe(exc)}, after a change to {', '.join(shown_path(path) for path in changed)}"
    else:
        state.succeeded()
        log(f"Rebuilt {report.exercises} exercise{'s' if report.exercises != 1 else ''} in {report.seconds:.2f} s "
            f"({report.summary()}); open pages reload.")
        return
    state.failed(message)
    log(f"error: {message}")


def describe(exc):
    """'unexpected RuntimeError: message (at path/file.py:12)', the innermost frame's place."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {shown_path(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    return f"unexpected {type(exc).__name__}: {exc}{where}"

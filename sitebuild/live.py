"""Live preview for `python build.py serve`: rebuild when a source file changes.

A thread polls the modification times of the files under the watched folders
(no dependency, works everywhere) and rebuilds after a change has settled.  The
shared `BuildState` tells the pages (through the server) which build they show
and whether the last rebuild failed; see site/js/live-reload.js.
"""

import threading
import time
from pathlib import Path

from sitebuild import BuildError
from sitebuild.pipeline import build_site

POLL_SECONDS = 0.5


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


def file_stamps(folders):
    """{path: (mtime, size)} of every file below `folders`, skipping caches and hidden files."""
    stamps = {}
    for folder in folders:
        for path in Path(folder).rglob("*"):
            if "__pycache__" in path.parts or any(part.startswith(".") for part in path.parts[-1:]):
                continue
            try:
                stat = path.stat()
            except OSError:
                continue  # removed while we looked
            if path.is_file():
                stamps[path] = (stat.st_mtime_ns, stat.st_size)
    return stamps


def watch(options, folders, state, validated, log=print):
    """Rebuild into options.out_dir whenever a file under `folders` changes; runs forever."""
    stamps = file_stamps(folders)
    while True:
        time.sleep(POLL_SECONDS)
        current = file_stamps(folders)
        if current == stamps:
            continue
        # Wait until an editor has finished writing (several files, or one in steps).
        while True:
            time.sleep(POLL_SECONDS)
            settled = file_stamps(folders)
            if settled == current:
                break
            current = settled
        stamps = current
        try:
            count, seconds = build_site(options, validated)
        except BuildError as exc:
            state.failed(str(exc))
            log(f"error: {exc}")
            continue
        state.succeeded()
        log(f"Rebuilt {count} exercise{'s' if count != 1 else ''} in {seconds:.2f} s; open pages reload.")

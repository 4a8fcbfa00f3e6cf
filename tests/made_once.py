"""Expensive session fixtures made once per test run, also when pytest-xdist spreads the run over workers.

Each xdist worker is a process of its own with its own session fixtures; what
is made here lives in the folder the workers share (the parent of each
worker's temporary folder), made by the first worker that asks, under a lock,
and reused by the others.
"""

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def made_once(tmp_path_factory, name, make):
    """The folder `name`, filled by `make(folder)` once for the whole run; later calls wait for it and reuse it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # pytest's folder for this run, shared by its workers
    folder = base / name
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = folder / ".made"
        if not done.exists():  # not made yet, or a worker's attempt failed half-way
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def shipped_site(tmp_path_factory):
    """The shipped catalogue's site, self-hosting Pyodide (`python build.py`), built once for the whole run. Its
    build validates the catalogue, the run's one validation of it (tests/test_validate.py reads its verdicts), and
    fills the validation cache: a later build of the catalogue in the run validates nothing again."""
    def build(folder):
        result = subprocess.run([sys.executable, "build.py", "--out", str(folder / "_site")], cwd=ROOT,
                                capture_output=True, text=True)
        assert result.returncode == 0, f"python build.py failed:\n{result.stdout}{result.stderr}"
    return made_once(tmp_path_factory, "site", build) / "_site"

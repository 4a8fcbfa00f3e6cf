"""Run `python build.py serve` on a copy of one exercise, for the live-preview tests."""

import contextlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def live_server(tmp_path, exercise_id="sinusoidal_pe", extra_args=()):
    """Yield (base URL, the copied exercise folder) once the first build is served."""
    exercises = tmp_path / "exercises"
    exercises.mkdir()
    shutil.copytree(ROOT / "exercises" / exercise_id, exercises / exercise_id)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", str(port), "--exercises", str(exercises),
         "--out", str(tmp_path / "site"), *extra_args],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(f"{base}/__live/build", timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("build.py serve did not come up") from None
                time.sleep(0.3)
        yield base, exercises / exercise_id
    finally:
        server.terminate()
        server.wait(10)

"""`python build.py serve`: a change under exercises/ rebuilds the site and bumps the build state pages poll."""

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def live_site(tmp_path):
    exercises = tmp_path / "exercises"
    exercises.mkdir()
    shutil.copytree(ROOT / "exercises" / "sinusoidal_pe", exercises / "sinusoidal_pe")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", str(port), "--exercises", str(exercises),
         "--out", str(tmp_path / "site"), "--pyodide-url", "http://127.0.0.1:9/pyodide/"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: fetch(f"{base}/__live/build"), 180, "the first build")
        yield base, exercises / "sinusoidal_pe"
    finally:
        server.terminate()
        server.wait(10)


def state(base):
    return json.loads(fetch(f"{base}/__live/build"))


def test_pages_load_the_live_reload_script(live_site):
    base, _ = live_site
    assert "assets/live-reload.js" in fetch(f"{base}/exercises/sinusoidal_pe/")
    assert "location.reload()" in fetch(f"{base}/assets/live-reload.js")
    assert state(base) == {"generation": 0, "error": None}


def test_an_edit_rebuilds_and_a_broken_edit_reports_without_replacing_the_site(live_site):
    base, exercise = live_site
    statement = exercise / "statement.md"
    statement.write_text(statement.read_text() + "\n\nA freshly added sentence.\n")
    wait_for(lambda: state(base)["generation"] == 1, 120, "the rebuild after an edit")
    assert "A freshly added sentence." in fetch(f"{base}/exercises/sinusoidal_pe/")

    statement.write_text(statement.read_text() + "\n\nBroken math: $\\frac{1}$\n")
    error = wait_for(lambda: state(base)["error"], 120, "the failed rebuild")
    assert "statement.md" in error
    assert state(base)["generation"] == 1
    assert "A freshly added sentence." in fetch(f"{base}/exercises/sinusoidal_pe/")  # last good build still served

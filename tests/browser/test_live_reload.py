"""Live preview in a real browser: an open page reloads itself after an edit and shows a failed rebuild."""

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def live_server(tmp_path):
    exercises = tmp_path / "exercises"
    exercises.mkdir()
    shutil.copytree(ROOT / "exercises" / "sinusoidal_pe", exercises / "sinusoidal_pe")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", str(port), "--exercises", str(exercises),
         "--out", str(tmp_path / "site")],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            urllib.request.urlopen(f"{base}/__live/build", timeout=5)
            break
        except OSError:
            assert time.monotonic() < deadline, "build.py serve did not come up"
            time.sleep(0.3)
    yield base, exercises / "sinusoidal_pe" / "statement.md"
    server.terminate()
    server.wait(10)


def test_open_page_reloads_after_an_edit_and_shows_a_failed_build(context, live_server):
    base, statement = live_server
    page = context.new_page()
    page.goto(f"{base}/exercises/sinusoidal_pe/")
    page.evaluate("window.notReloadedYet = true")

    statement.write_text(statement.read_text() + "\n\nA sentence added while the page was open.\n")
    page.wait_for_function("!window.notReloadedYet", timeout=120_000)
    page.wait_for_selector("text=A sentence added while the page was open.", timeout=30_000)

    statement.write_text(statement.read_text() + "\n\nBroken: $\\frac{1}$\n")
    banner = page.locator(".live-build-error")
    banner.wait_for(state="visible", timeout=120_000)
    assert "statement.md" in banner.inner_text()

"""`python build.py serve`: a change under exercises/ rebuilds the site and bumps the build state pages poll."""

import json
import time
import urllib.request

import pytest

from live_server import live_server


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
    with live_server(tmp_path, extra_args=("--pyodide-url", "http://127.0.0.1:9/pyodide/")) as served:
        yield served


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

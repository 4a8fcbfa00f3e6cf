"""`python build.py serve`: a change under exercises/ rebuilds the site and bumps the build state pages poll;
whatever a rebuild raises, the watcher reports it and keeps watching."""

import json
import shutil
import threading
import time
import urllib.request

import pytest

from live_server import ROOT, live_server
from sitebuild.live import BuildState, Validations, watch
from sitebuild.pipeline import BuildOptions, BuildReport, build_site
from sitebuild.render import Renderer


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


# The watcher in-process: a build step that raises what nobody foresaw must not stop it.

@pytest.fixture
def watched(tmp_path):
    """A copy of one exercise, built once, and a started watcher: (statement path, BuildState, log lines)."""
    exercises = tmp_path / "exercises"
    shutil.copytree(ROOT / "exercises" / "sinusoidal_pe", exercises / "sinusoidal_pe")
    options = BuildOptions(out_dir=tmp_path / "site", exercises_dir=exercises, live_reload=True,
                           pyodide_url="http://127.0.0.1:9/pyodide/")
    build_site(options)
    state, logs, stop = BuildState(), [], threading.Event()
    watcher = threading.Thread(target=watch, args=(options, [exercises], state, logs.append, stop), daemon=True)
    watcher.start()
    yield exercises / "sinusoidal_pe" / "statement.md", state, logs, watcher
    stop.set()
    watcher.join(10)


def save_until(path, text, condition, what):
    """Write `text` to `path`, again every few seconds (the watcher may not have started yet), until `condition`."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        path.write_text(text)
        for _ in range(20):
            if condition():
                return
            time.sleep(0.25)
    pytest.fail(f"timed out waiting for {what}")


def test_the_watcher_survives_an_unexpected_exception_and_the_next_good_save_clears_it(watched, monkeypatch):
    statement, state, logs, watcher = watched
    original = statement.read_text()
    render_page = Renderer.exercise

    def failing_render(self, exercise, **kwargs):
        if "TRIGGER" in exercise.statement:
            raise RuntimeError("page template blew up")
        return render_page(self, exercise, **kwargs)

    monkeypatch.setattr(Renderer, "exercise", failing_render)
    save_until(statement, original + "\nTRIGGER\n", lambda: state.snapshot()["error"], "the failed rebuild")
    error = state.snapshot()["error"]
    assert error.startswith("unexpected RuntimeError: page template blew up (at tests/test_live_preview.py:")
    assert error.endswith(f"after a change to {statement}")
    assert f"error: {error}" in logs
    assert watcher.is_alive()
    assert state.snapshot()["generation"] == 0

    save_until(statement, original + "\nFixed again.\n", lambda: state.snapshot()["generation"] >= 1,
               "the rebuild after the fix")
    assert state.snapshot()["error"] is None
    assert "Fixed again." in (statement.parents[2] / "site" / "exercises" / "sinusoidal_pe" / "index.html").read_text()


def test_a_watcher_that_fails_reports_it_and_watches_again(tmp_path):
    exercises = tmp_path / "exercises"  # not there yet: the watcher cannot start
    options = BuildOptions(out_dir=tmp_path / "site", exercises_dir=exercises, live_reload=True,
                           pyodide_url="http://127.0.0.1:9/pyodide/")
    state, logs, stop = BuildState(), [], threading.Event()
    watcher = threading.Thread(target=watch, args=(options, [exercises], state, logs.append, stop), daemon=True)
    watcher.start()
    try:
        error = wait_for(lambda: state.snapshot()["error"], 30, "the watcher's error")
        assert error.startswith("the file watcher stopped: unexpected FileNotFoundError")
        assert any(line.startswith("error: the file watcher stopped") for line in logs)
        shutil.copytree(ROOT / "exercises" / "sinusoidal_pe", exercises / "sinusoidal_pe")
        statement = exercises / "sinusoidal_pe" / "statement.md"
        save_until(statement, statement.read_text() + "\nWatched at last.\n",
                   lambda: state.snapshot()["generation"] >= 1, "a rebuild once the folder exists")
        assert state.snapshot()["error"] is None
    finally:
        stop.set()
        watcher.join(10)


def test_a_rebuild_reloads_before_validating_and_the_validation_reports_after(watched):
    statement, state, logs, watcher = watched
    solution = statement.with_name("solution.py")
    original = solution.read_text()
    broken = original + "\n\ndef sinusoidal_pe(T, C):\n    return None\n"
    save_until(solution, broken, lambda: state.snapshot()["generation"] >= 1, "the rebuild after the edit")
    rebuilt = next(line for line in logs if line.startswith("Rebuilt "))
    assert "to validate: sinusoidal_pe" in rebuilt  # the pages reloaded without waiting for it
    error = wait_for(lambda: state.snapshot()["error"], 120, "the background validation")
    assert "sinusoidal_pe/solution.py: the reference fails test" in error
    assert f"error: {error}" in logs

    # Back to the version validated before: the cache knows it, and the problem goes.
    save_until(solution, original, lambda: state.snapshot()["error"] is None, "the fix")
    assert watcher.is_alive()


def test_the_problem_of_a_deleted_exercise_goes_with_it(tmp_path):
    state = BuildState()
    validations = Validations(BuildOptions(out_dir=tmp_path / "site", cache_dir=tmp_path / "cache"), state, print)
    state.validated("deleted_one", "exercises/deleted_one/tests.py:3: hidden tests fail to import")
    assert state.snapshot()["error"].startswith("exercises/deleted_one/tests.py:3")
    validations.start(BuildReport(exercises=1, seconds=0.1, validated=[], from_cache=["sinusoidal_pe"],
                                  cache_warning=None))
    assert state.snapshot()["error"] is None

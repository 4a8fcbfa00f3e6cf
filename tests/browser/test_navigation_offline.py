"""Moving between pages keeps the Python runtime; the service worker makes the site work offline after one
visit and gives way to the next build."""

import json
import shutil
import subprocess
import sys
import threading
import time

import pytest

from conftest import PYTHON_READY_MS, ROOT, SNAPSHOT_CACHE, wait_until_ready
from page_helpers import EXERCISES, SOLUTION, editor_text, grade_in_page, set_code
from sitebuild.serve import make_server

TRACK = ["sinusoidal_pe", "relative_shift", "position_similarity"]  # steps 2, 3 and 4 of build-gpt


def exercise_title(exercise_id):
    return next(line.split("=", 1)[1].strip().strip('"') for line in
                (EXERCISES / exercise_id / "exercise.toml").read_text().splitlines() if line.startswith("title"))


def solution(exercise_id):
    return (EXERCISES / exercise_id / "solution.py").read_text()


def wait_for_offline_copy(page):
    """The service worker takes control once it has precached the whole build."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=PYTHON_READY_MS)


def follow(page, selector, exercise_id):
    page.click(selector)
    page.wait_for_function("title => document.querySelector('main h1')?.textContent === title",
                           arg=exercise_title(exercise_id))
    assert page.url.endswith(f"/exercises/{exercise_id}/")


def test_moving_between_pages_keeps_the_runtime(page, base_url):
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url))
    with page.expect_worker():  # the index starts Python while the learner reads it
        page.goto(f"{base_url}/index.html")
    page.evaluate("window.sameDocument = true")

    follow(page, f'a[href="exercises/{TRACK[0]}/"]', TRACK[0])
    wait_until_ready(page)
    assert page.evaluate("document.activeElement.tagName") == "H1", "focus moves to the new page's heading"
    set_code(page, "# my work on step 1\n")
    follow(page, "a[rel=next]", TRACK[1])
    assert page.locator("#runtime-status").inner_text() == "Ready", "no second boot"
    assert page.locator(".cm-editor").count() == 1, "the previous editor is gone"
    assert editor_text(page) == (EXERCISES / TRACK[1] / "starter.py").read_text()
    assert grade_in_page(page, solution(TRACK[1]))["passed"]
    assert page.title().startswith(exercise_title(TRACK[1]))
    assert page.evaluate("document.body.dataset.exerciseId") == TRACK[1]

    follow(page, "a[rel=next]", TRACK[2])
    page.go_back()
    page.wait_for_function("id => document.body.dataset.exerciseId === id", arg=TRACK[1])
    page.go_back()
    page.wait_for_function("id => document.body.dataset.exerciseId === id", arg=TRACK[0])
    assert page.url == f"{base_url}/exercises/{TRACK[0]}/"
    assert editor_text(page) == "# my work on step 1\n", "code saved per exercise, as on a reload"
    assert grade_in_page(page, SOLUTION)["passed"]

    page.click(".breadcrumb a")
    page.wait_for_selector(f'[data-progress-for="{TRACK[0]}"].progress-solved')
    assert page.url == f"{base_url}/index.html#track-build-gpt"
    assert page.evaluate("window.sameDocument") is True
    # The runner's two workers (the next run's and a spare), plus one replacement per run (every run
    # gets a fresh interpreter): a page load would have started a new runner with two more. Each is two
    # workers: its relay starts it.
    runs = 2
    assert len(workers) <= 2 * (2 + runs), f"Python started again: {workers}"


def test_a_link_that_fails_to_load_falls_back_to_a_normal_navigation(page, base_url):
    page.goto(f"{base_url}/exercises/{TRACK[0]}/")
    page.evaluate("""() => {
        window.sameDocument = true;
        const link = document.createElement('a');
        link.href = '../no_such_exercise/';
        link.id = 'broken';
        link.textContent = 'broken';
        document.querySelector('main').append(link);
    }""")
    page.click("#broken")
    # Waits for the URL itself: a history update of the page's own (under load, after goto returned) is also
    # a navigation to Playwright.
    page.wait_for_url("**/exercises/no_such_exercise/")
    assert page.evaluate("window.sameDocument") is None


def test_the_site_opens_and_grades_offline_after_one_visit(context, page, base_url):
    page.goto(f"{base_url}/exercises/{TRACK[0]}/")
    wait_until_ready(page)
    wait_for_offline_copy(page)

    context.set_offline(True)
    page.reload()
    wait_until_ready(page)
    assert page.evaluate("crossOriginIsolated"), "the service worker's copies carry COOP/COEP"
    assert grade_in_page(page, SOLUTION)["passed"]
    follow(page, "a[rel=next]", TRACK[1])
    assert grade_in_page(page, solution(TRACK[1]))["passed"]
    page.goto(f"{base_url}/")
    assert page.locator(f'a.exercise-link[href="exercises/{TRACK[2]}/"]').is_visible()
    # The index filtered by the URL (a tag's link) opens offline too: the page without its query, filtered.
    page.goto(f"{base_url}/index.html?tag=attention")
    assert page.locator("#filter-tag").input_value() == "attention"
    assert page.locator(f'a.exercise-link[href="exercises/{TRACK[2]}/"]').is_hidden()  # not tagged attention


@pytest.fixture
def rebuildable_site(tmp_path):
    """(base URL, exercises folder, rebuild()): a one-exercise site, served while it is rebuilt in place."""
    exercises = tmp_path / "exercises"
    shutil.copytree(EXERCISES / TRACK[0], exercises / TRACK[0])
    out = tmp_path / "_site"

    def rebuild():
        result = subprocess.run([sys.executable, "build.py", "--out", str(out), "--exercises", str(exercises)],
                                cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr

    rebuild()
    server = make_server(out, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", exercises, rebuild
    server.shutdown()
    server.server_close()


def build_version(page, base):
    source = page.evaluate("url => fetch(url, {cache: 'no-store'}).then(r => r.text())", f"{base}/sw.js")
    return json.loads(source.split("const BUILD = ", 1)[1].split(";\n", 1)[0])["version"]


def build_caches(page):
    """The service worker's caches: all but the Python snapshot's, which outlives builds."""
    return [name for name in page.evaluate("caches.keys()") if name != SNAPSHOT_CACHE]


def test_a_new_build_replaces_the_cached_one(context, page, rebuildable_site):
    base, exercises, rebuild = rebuildable_site
    page.goto(f"{base}/exercises/{TRACK[0]}/")
    wait_until_ready(page)
    wait_for_offline_copy(page)
    first = build_version(page, base)
    assert build_caches(page) == [f"mlex-{first}"]

    statement = exercises / TRACK[0] / "statement.md"
    statement.write_text(statement.read_text() + "\n\nA sentence from the second build.\n")
    rebuild()
    second = build_version(page, base)
    assert second != first
    page.reload()
    assert page.locator("text=A sentence from the second build.").is_visible(), "pages come from the network first"
    deadline = time.monotonic() + PYTHON_READY_MS / 1000
    while build_caches(page) != [f"mlex-{second}"]:  # the old build's cache is deleted
        assert time.monotonic() < deadline, "the new build's service worker did not take over"
        page.wait_for_timeout(500)

    context.set_offline(True)
    page.reload()
    assert page.locator("text=A sentence from the second build.").is_visible()
    wait_until_ready(page)

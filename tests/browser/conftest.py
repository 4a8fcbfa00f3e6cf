"""Fixtures for the browser tests: the built site served on 127.0.0.1, one Chromium, a fresh context per test.

The site is built once per session with self-hosted Pyodide. Nothing outside
127.0.0.1 is reachable here, and the site must not need it: every other request
the page attempts is blocked and fails the test.

Each context starts as a returning learner's browser: it holds the Python snapshot
that a first visit saves (made once per session, by the site itself), so its
workers restore Python instead of starting it (about half a boot each). A test
marked `cold_start` gets a context that has never seen the site.
"""

import json
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from made_once import made_once  # noqa: E402
from sitebuild.serve import make_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
PYTHON_READY_MS = 90_000  # loading Pyodide + numpy takes a few seconds; much more on a busy machine
SNAPSHOT_CACHE, SNAPSHOT_VERSION_HEADER = "mlex-python", "X-Pyodide-Version"  # as site/js/python-snapshot.js


def _serving(server):
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(site_dir):
    """The site without the COOP/COEP headers, as a static host serves it: a page is cross-origin isolated
    only once the service worker controls it (so a first visit takes the runtime's path without isolation)."""
    yield from _serving(make_server(site_dir, "127.0.0.1", 0, isolate=False))


@pytest.fixture(scope="session")
def isolated_base_url(site_dir):
    """The same site as `build.py serve` sends it: cross-origin isolated from the first page."""
    yield from _serving(make_server(site_dir, "127.0.0.1", 0))


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@dataclass
class Snapshot:
    key: str  # the cache entry's path (and query) on the site's origin
    version: str
    path: str  # where the site's server serves its bytes


@pytest.fixture(scope="session")
def python_snapshot(browser, base_url, site_dir, tmp_path_factory):
    """The snapshot a first visit to the site saves, as the page saved it; served by the site's server
    outside the site's own paths (passing 20 MB through Playwright for every test would take seconds).
    Made once per run: xdist workers share the site's folder, so they serve the same file."""
    served = site_dir / "__tests__" / "python-snapshot.bin"

    def save(folder):
        saved = _first_visit_snapshot(browser, base_url, served)
        (folder / "snapshot.json").write_text(json.dumps(saved))

    saved = json.loads((made_once(tmp_path_factory, "python-snapshot", save) / "snapshot.json").read_text())
    url = urlsplit(saved["url"])
    key = url.path + (f"?{url.query}" if url.query else "")
    return Snapshot(key, saved["version"], "/__tests__/python-snapshot.bin")


def _first_visit_snapshot(browser, base_url, served):
    """Visit the site in a new context; write the snapshot it saved to `served`; return its URL and version."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base_url}/index.html")
    page.wait_for_function("window.runner?.isWarm()", timeout=PYTHON_READY_MS)
    uploaded = []

    def take(route):
        uploaded.append(route.request.post_data_buffer)
        route.fulfill(status=204)

    page.route(f"{base_url}/__snapshot", take)
    saved = page.evaluate(f"""async () => {{
        const cache = await caches.open("{SNAPSHOT_CACHE}");
        const [request] = await cache.keys();
        const response = await cache.match(request);
        await fetch("/__snapshot", {{method: "POST", body: await response.arrayBuffer()}});
        return {{url: request.url, version: response.headers.get("{SNAPSHOT_VERSION_HEADER}")}};
    }}""")
    context.close()
    served.parent.mkdir(exist_ok=True)
    served.write_bytes(uploaded[0])
    return saved


def seed_snapshot(context, origin, snapshot):
    """Puts `snapshot` where the site at `origin` keeps it, as a visit there would have."""
    seed_page = f"{origin}/__tests__/seed.html"
    context.route(seed_page, lambda route: route.fulfill(body="<!doctype html>", content_type="text/html"))
    page = context.new_page()
    page.goto(seed_page)
    page.evaluate(f"""async () => {{
        const response = await fetch("{snapshot.path}");
        const headers = {{"{SNAPSHOT_VERSION_HEADER}": "{snapshot.version}"}};
        const cache = await caches.open("{SNAPSHOT_CACHE}");
        await cache.put("{snapshot.key}", new Response(await response.arrayBuffer(), {{headers}}));
    }}""")
    page.close()
    context.unroute(seed_page)


@pytest.fixture
def context(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if request.node.get_closest_marker("cold_start") is None:
        for origin in ("base_url", "isolated_base_url"):
            if origin in request.fixturenames:
                seed_snapshot(context, request.getfixturevalue(origin), request.getfixturevalue("python_snapshot"))
    outside = []

    def only_local(route):
        url = route.request.url
        if urlsplit(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", only_local)
    yield context
    context.close()
    assert not outside, f"the page tried to reach outside 127.0.0.1: {outside}"


@pytest.fixture
def page(context):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture
def open_exercise(page, base_url):
    """Open an exercise page and wait until Python is ready; returns the page."""
    def open_(exercise_id="sinusoidal_pe"):
        page.goto(f"{base_url}/exercises/{exercise_id}/")
        wait_until_ready(page)
        return page
    return open_


def wait_until_ready(page):
    page.wait_for_function("document.getElementById('runtime-status')?.textContent === 'Ready'",
                           timeout=PYTHON_READY_MS)

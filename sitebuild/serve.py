"""Serve a built site over HTTP for local use.

The handler looks files up under the site folder's path on every request, so a
rebuild that swaps a new folder in at that path is picked up without a restart.

Caching: hash-versioned URLs (`?v=`, see sitebuild/offline.py, and the bundle's
chunks, named after their content) may be kept for good; everything else, pages and the service worker included, is revalidated
(Last-Modified / If-Modified-Since, answered 304 when unchanged). Text and
WebAssembly files go out gzip-compressed to clients that accept it; each file is
compressed once and kept in memory until it changes. With `isolate`, every
response carries the COOP/COEP headers that make the pages cross-origin isolated.
The grading worker's script goes out with its Content-Security-Policy (the build's
worker-policy.json, see sitebuild/offline.py): the worker loads nothing after its boot.
"""

import email.utils
import functools
import gzip
import io
import json
import os
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from sitebuild.offline import SITE_ROOT, WORKER_POLICY

LIVE_STATE_PATH = "/__live/build"
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".map": "application/json",
    ".css": "text/css",
    ".html": "text/html",
    ".py": "text/x-python",
}
# Worth compressing: text, and WebAssembly (pyodide.asm.wasm shrinks from 10.1 to 3.2 MB). Zips and wheels are not.
COMPRESSED = {".html", ".css", ".js", ".mjs", ".json", ".map", ".wasm", ".py", ".txt", ".svg"}
GZIP_LEVEL = 6  # level 9 saves under 1 % on the wasm and takes 3 times longer
FOREVER = "public, max-age=31536000, immutable"
HASHED_PREFIX = "/assets/chunks/"  # the bundler names these files after their content
ISOLATION_HEADERS = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}


class GzipCache:
    """Compressed copies of files, keyed by path and redone when the file's mtime or size changes."""

    def __init__(self):
        self._lock = threading.Lock()
        self._entries = {}

    def get(self, path, stat):
        key = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            entry = self._entries.get(path)
        if entry and entry[0] == key:
            return entry[1]
        with open(path, "rb") as f:
            data = gzip.compress(f.read(), GZIP_LEVEL, mtime=0)
        with self._lock:
            self._entries[path] = (key, data)
        return data


class SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    live = None  # a sitebuild.live.BuildState when serving a live preview
    isolate = False
    gzip_cache = None

    def do_GET(self):
        if self.live is not None and urlsplit(self.path).path == LIVE_STATE_PATH:
            body = json.dumps(self.live.snapshot()).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def send_head(self):
        path = self._file_path()
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if path is None or os.path.splitext(path)[1] not in COMPRESSED or not accepts_gzip:
            return super().send_head()
        stat = os.stat(path)
        if self._not_modified_since(stat):
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.end_headers()
            return None
        data = self.gzip_cache.get(path, stat)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return io.BytesIO(data)

    def _file_path(self):
        """The regular file a GET for this URL serves (a folder's index.html), or None."""
        url_path = urlsplit(self.path).path
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not url_path.endswith("/"):
                return None  # the base class redirects to the folder's URL with a slash
            path = os.path.join(path, "index.html")
        return path if os.path.isfile(path) else None

    def _not_modified_since(self, stat):
        try:
            since = email.utils.parsedate_to_datetime(self.headers["If-Modified-Since"])
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return since.tzinfo is not None and int(stat.st_mtime) <= since.timestamp()

    def end_headers(self):
        url = urlsplit(self.path)
        versioned = "v" in parse_qs(url.query) or url.path.startswith(HASHED_PREFIX)
        self.send_header("Cache-Control", FOREVER if versioned else "no-cache")
        self.send_header("Vary", "Accept-Encoding")
        if self.isolate:
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)
        if policy := self._worker_policy(url.path):
            self.send_header("Content-Security-Policy", policy)
        super().end_headers()

    def _worker_policy(self, url_path):
        """The grading worker's policy if `url_path` is its script, else None."""
        try:
            worker = json.loads((Path(self.directory) / WORKER_POLICY).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # not a site this build made
        if url_path != "/" + worker["script"]:
            return None
        return worker["policy"].replace(SITE_ROOT, f"http://{self.headers.get('Host', '')}/")

    def log_request(self, code="-", size="-"):
        pass  # quiet: errors still go through log_error


class SiteServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # browsers drop connections all the time
            super().handle_error(request, client_address)


def make_server(site_dir, host="127.0.0.1", port=8000, live=None, isolate=True):
    """A server for `site_dir` (port 0 picks a free one); call serve_forever() on it.

    With `live` (a BuildState), it also answers LIVE_STATE_PATH for live-reloading pages.
    `isolate`: send COOP/COEP (leave it off for a site that loads Pyodide from another origin).
    """
    handler = type("Handler", (SiteHandler,), {"live": live, "isolate": isolate, "gzip_cache": GzipCache()})
    return SiteServer((host, port), functools.partial(handler, directory=str(site_dir)))


def serve(site_dir, host="127.0.0.1", port=8000, live=None, isolate=True):
    """Serve `site_dir` until Ctrl+C."""
    with make_server(site_dir, host, port, live, isolate) as server:
        shown_host = f"[{host}]" if ":" in host else host
        print(f"Serving {site_dir} at http://{shown_host}:{server.server_address[1]}/ (Ctrl+C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\nStopped.")

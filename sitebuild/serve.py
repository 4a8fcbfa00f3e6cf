"""Serve a built site over HTTP for local use.

The handler looks files up under the site folder's path on every request, so a
rebuild that swaps a new folder in at that path is picked up without a restart.
"""

import functools
import json
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

LIVE_STATE_PATH = "/__live/build"
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".map": "application/json",
    ".css": "text/css",
    ".html": "text/html",
}


class SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    live = None  # a sitebuild.live.BuildState when serving a live preview

    def do_GET(self):
        if self.live is not None and self.path.split("?")[0] == LIVE_STATE_PATH:
            body = json.dumps(self.live.snapshot()).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def end_headers(self):
        # Always revalidate, so a rebuilt site shows up on reload.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_request(self, code="-", size="-"):
        pass  # quiet: errors still go through log_error


class SiteServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # browsers drop connections all the time
            super().handle_error(request, client_address)


def make_server(site_dir, host="127.0.0.1", port=8000, live=None):
    """A server for `site_dir` (port 0 picks a free one); call serve_forever() on it.

    With `live` (a BuildState), it also answers LIVE_STATE_PATH for live-reloading pages.
    """
    handler = type("Handler", (SiteHandler,), {"live": live})
    return SiteServer((host, port), functools.partial(handler, directory=str(site_dir)))


def serve(site_dir, host="127.0.0.1", port=8000, live=None):
    """Serve `site_dir` until Ctrl+C."""
    with make_server(site_dir, host, port, live) as server:
        shown_host = f"[{host}]" if ":" in host else host
        print(f"Serving {site_dir} at http://{shown_host}:{server.server_address[1]}/ (Ctrl+C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\nStopped.")

"""Serve a built site over HTTP for local use.

The handler looks files up under the site folder's path on every request, so a
rebuild that swaps a new folder in at that path is picked up without a restart.
"""

import functools
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

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


def make_server(site_dir, host="127.0.0.1", port=8000):
    """A server for `site_dir` (port 0 picks a free one); call serve_forever() on it."""
    return SiteServer((host, port), functools.partial(SiteHandler, directory=str(site_dir)))


def serve(site_dir, host="127.0.0.1", port=8000):
    """Serve `site_dir` until Ctrl+C."""
    with make_server(site_dir, host, port) as server:
        shown_host = f"[{host}]" if ":" in host else host
        print(f"Serving {site_dir} at http://{shown_host}:{server.server_address[1]}/ (Ctrl+C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\nStopped.")

"""Versioned asset URLs and the service worker that precaches the built site.

Asset URLs carry a hash of the file (`assets/page.js?v=1a2b...`), so a browser
may keep them for good and a rebuilt file gets a new URL. The service worker,
written at the site root so that its scope covers every page, starts with the
build's precache list and version (see site/js/service-worker.js).
"""

import hashlib
import json

from sitebuild.bundle import CHUNKS_DIR
from sitebuild.capstone import FOLDER as CAPSTONE, data_urls

SERVICE_WORKER = "sw.js"
# The grading worker's Content-Security-Policy, for the site's server (sitebuild/serve.py) and any host that sends
# headers: {"script": the worker's path under the site root, "policy": the policy, SITE_ROOT standing for the
# site root's URL}. The service worker carries the same as BUILD.worker.
WORKER_POLICY = "worker-policy.json"
SITE_ROOT = "{site}"


def versioned_asset_urls(assets_dir):
    """{"page.js": "assets/page.js?v=<hash>", ...} for every asset except source maps and chunks
    (whose names carry their hash already)."""
    return {path.name: f"assets/{path.name}?v={_digest(path.read_bytes())}"
            for path in sorted(assets_dir.iterdir()) if path.is_file() and path.suffix != ".map"}


def editor_chunk_url(assets_dir):
    """URL (relative to the site root) of the bundle's chunk holding the exercise page's editor."""
    [chunk] = (assets_dir / CHUNKS_DIR).glob("exercise-view-*.js")
    return f"assets/{CHUNKS_DIR}/{chunk.name}"


def worker_policy(worker_url, pyodide_url, fetched):
    """{"script", "policy"}: the Content-Security-Policy of the grading worker's script (worker_url, relative to the
    site root). A dedicated worker takes its policy from its script's response, and this one allows what the worker
    loads while it boots, nothing else: Pyodide's two scripts, fetching `fetched` (URLs relative to the site root:
    what it downloads from the site) and, when Pyodide comes from elsewhere (pyodide_url), anything under that
    URL, compiling WebAssembly, and starting itself (the relay starts the grading worker from the same script).
    No eval, no other script or module, no request elsewhere: after the boot the learner's code runs there."""
    pyodide = pyodide_url or f"{SITE_ROOT}pyodide/"
    script = worker_url.split("?")[0]
    connect = [pyodide] if pyodide_url else []
    connect += [SITE_ROOT + url.split("?")[0] for url in fetched]
    policy = "; ".join([
        "default-src 'none'",
        f"script-src {pyodide}pyodide.js {pyodide}pyodide.asm.js 'wasm-unsafe-eval'",
        f"connect-src {' '.join(connect)}",
        f"worker-src {SITE_ROOT}{script}",
    ])
    return {"script": script, "policy": policy}


def write_service_worker(out, source, asset_urls, pyodide_files, isolate, worker):
    """Write out/sw.js: `source` (the worker's code) after its BUILD constant; pyodide_files: the URLs (relative
    to the site root) of the self-hosted Pyodide's files that the grading worker fetches.

    BUILD.pages are fetched fresh when online (network first), BUILD.files come from
    the cache first; both map a URL relative to the site root to its content hash.
    BUILD.isolate asks for the COOP/COEP headers that make the pages cross-origin isolated.
    BUILD.worker is the grading worker's policy (worker_policy), also written to out/WORKER_POLICY for servers.
    """
    pages = {"./": _file_digest(out / "index.html"), "index.html": _file_digest(out / "index.html")}
    for folder in sorted(path for path in (out / "exercises").iterdir() if path.is_dir()):
        base = f"exercises/{folder.name}/"
        pages[base] = _file_digest(folder / "index.html")
        # grading.json, solution.py and the images the statement shows, for the page to work offline
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.name != "index.html":
                pages[base + path.relative_to(folder).as_posix()] = _file_digest(path)
    if (out / CAPSTONE / "index.html").is_file():
        for name in ("", "capstone.json"):
            pages[f"{CAPSTONE}/{name}"] = _file_digest(out / CAPSTONE / (name or "index.html"))
    files = {url: url.split("?v=")[1] for url in [*asset_urls.values(), *data_urls(out).values()]}
    files.update({f"assets/{CHUNKS_DIR}/{path.name}": _file_digest(path)
                  for path in sorted((out / "assets" / CHUNKS_DIR).glob("*.js"))})
    files.update({url: _file_digest(out / url) for url in pyodide_files})
    build = {"pages": pages, "files": files, "isolate": isolate, "worker": worker}
    build["version"] = _digest(json.dumps(build, sort_keys=True).encode())
    (out / WORKER_POLICY).write_text(json.dumps(worker, indent=1), encoding="utf-8")
    (out / SERVICE_WORKER).write_text(f"const BUILD = {json.dumps(build, indent=1)};\n\n{source}", encoding="utf-8")
    return build["version"]


def _file_digest(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()[:16]


def _digest(data):
    return hashlib.sha256(data).hexdigest()[:16]

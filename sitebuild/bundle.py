"""Bundle the page scripts with esbuild from node_modules (running `npm ci` when needed)."""

import subprocess
import sys

from sitebuild import BuildError

# name -> what it is, for the message when the source is missing
ENTRIES = {
    "page": "the script of every page (navigation, editor, Run tests, progress badges)",
    "worker": "the grading worker (runs Pyodide)",
}
ESM_ENTRIES = ("page",)
WORKER_FORMAT = "iife"
CHUNKS_DIR = "chunks"  # under the assets folder; file names carry a hash of their content  # site/js/worker.js is a classic worker (importScripts)


def bundle(project_root, assets_dir):
    """Write assets_dir/{page,worker}.js and assets_dir/chunks/ (minified, with source maps that only DevTools
    fetches)."""
    sources = {name: project_root / "site" / "js" / f"{name}.js" for name in ENTRIES}
    for name, path in sources.items():
        if not path.is_file():
            raise BuildError(f"{path.relative_to(project_root).as_posix()} is missing: it is {ENTRIES[name]}, "
                             "which the site cannot be built without")
    esbuild = _ensure_node_modules(project_root) / ".bin" / "esbuild"
    # Split: what page.js imports lazily (the editor, for exercise pages only) goes to content-named chunks.
    _run_esbuild(esbuild, [sources[name] for name in ESM_ENTRIES], "esm", assets_dir, project_root,
                 ["--splitting", f"--chunk-names={CHUNKS_DIR}/[name]-[hash]"])
    _run_esbuild(esbuild, [sources["worker"]], WORKER_FORMAT, assets_dir, project_root)


def _run_esbuild(esbuild, entry_points, format_, assets_dir, project_root, extra=()):
    command = [str(esbuild), *map(str, entry_points), "--bundle", f"--format={format_}", "--minify",
               "--sourcemap", "--target=es2022", "--log-level=warning", f"--outdir={assets_dir}", *extra]
    result = subprocess.run(command, cwd=project_root, capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"esbuild failed:\n{result.stderr.strip()}")
    if result.stderr.strip():
        print(result.stderr.strip(), file=sys.stderr)


def _ensure_node_modules(project_root):
    node_modules = project_root / "node_modules"
    # npm writes this file on every install; older than package-lock.json means stale.
    installed = node_modules / ".package-lock.json"
    lock = project_root / "package-lock.json"
    if not installed.is_file() or installed.stat().st_mtime < lock.stat().st_mtime:
        print("node_modules is missing or older than package-lock.json: running npm ci", file=sys.stderr)
        try:
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=project_root, check=True,
                           stdout=sys.stderr)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise BuildError(f"`npm ci` in {project_root} failed: {exc}") from None
    return node_modules

"""Bundle the page scripts with esbuild from node_modules (running `npm ci` when needed).

The bundles are kept in the build cache under a hash of everything they are
made from (site/js/, the npm lock file, this module's esbuild options), so a
build with unchanged scripts copies them instead of running esbuild.
"""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sitebuild import BuildError
from sitebuild.cache import digest, files_digest
from toolchain.node import NodeError, ensure_node_modules

# name -> what it is, for the message when the source is missing
ENTRIES = {
    "page": "the script of every page (navigation, editor, Run tests, progress badges)",
    "worker": "the grading worker (runs Pyodide)",
}
ESM_ENTRIES = ("page",)
WORKER_FORMAT = "iife"  # site/js/worker.js is a classic worker (importScripts)
CHUNKS_DIR = "chunks"  # under the assets folder; file names carry a hash of their content


def bundle(project_root, assets_dir, cache):
    """Write assets_dir/{page,worker}.js and assets_dir/chunks/ (minified, with source maps that only DevTools
    fetches), from `cache` (a DiskCache) when it holds them. Returns the chunks page.js imports statically
    (paths relative to assets_dir): pages preload them with page.js, since a browser finds them only once
    it has parsed page.js, which delays the start of the grading worker."""
    sources = {name: project_root / "site" / "js" / f"{name}.js" for name in ENTRIES}
    for name, path in sources.items():
        if not path.is_file():
            raise BuildError(f"{path.relative_to(project_root).as_posix()} is missing: it is {ENTRIES[name]}, "
                             "which the site cannot be built without")
    key = digest(files_digest(project_root, ["site/js/**/*.js", "package-lock.json"]), Path(__file__).read_bytes())
    imports = cache.get(f"{key}-page-imports")
    if imports is not None and cache.copy_folder(key, assets_dir):
        return imports["chunks"]
    try:
        esbuild = ensure_node_modules(project_root) / ".bin" / "esbuild"
    except NodeError as exc:
        raise BuildError(str(exc)) from None
    with tempfile.TemporaryDirectory() as scratch, tempfile.TemporaryDirectory() as meta_dir:
        # The two formats need two esbuild runs; they run side by side. What page.js imports lazily (the
        # editor, for exercise pages only) goes to content-named chunks.
        metafile = Path(meta_dir) / "page.json"
        runs = [_start_esbuild(esbuild, [sources[name] for name in ESM_ENTRIES], "esm", scratch, project_root,
                               ["--splitting", f"--chunk-names={CHUNKS_DIR}/[name]-[hash]", f"--metafile={metafile}"]),
                _start_esbuild(esbuild, [sources["worker"]], WORKER_FORMAT, scratch, project_root)]
        errors = [error for error in map(_finish_esbuild, runs) if error]
        if errors:
            raise BuildError("esbuild failed:\n" + "\n".join(errors))
        chunks = _static_imports(json.loads(metafile.read_text(encoding="utf-8")), Path(scratch), project_root)
        cache.put_folder(key, scratch)
        cache.put(f"{key}-page-imports", {"chunks": chunks})
        shutil.copytree(scratch, assets_dir, dirs_exist_ok=True)
    return chunks


def _static_imports(metafile, outdir, project_root):
    """The files page.js imports with import statements (not import()), from esbuild's metafile, whose
    paths are relative to the folder esbuild ran in."""
    outputs = {(project_root / path).resolve(): output for path, output in metafile["outputs"].items()}
    page = outputs[(outdir / "page.js").resolve()]
    return sorted((project_root / entry["path"]).resolve().relative_to(outdir.resolve()).as_posix()
                  for entry in page["imports"] if entry["kind"] == "import-statement")


def _start_esbuild(esbuild, entry_points, format_, assets_dir, project_root, extra=()):
    command = [str(esbuild), *map(str, entry_points), "--bundle", f"--format={format_}", "--minify",
               "--sourcemap", "--target=es2022", "--log-level=warning", f"--outdir={assets_dir}", *extra]
    return subprocess.Popen(command, cwd=project_root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish_esbuild(process):
    """Wait for an esbuild run; return its error output if it failed (warnings are printed)."""
    _, stderr = process.communicate()
    if process.returncode != 0:
        return stderr.strip()
    if stderr.strip():
        print(stderr.strip(), file=sys.stderr)
    return None

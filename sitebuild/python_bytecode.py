"""The bytecode of the Python modules a grading worker loads, compiled at build time in the site's own Pyodide.

Pyodide ships source only: its standard library (python_stdlib.zip, which Python imports from as a zip) and
numpy's wheel. Each boot would compile every module it imports, about half of a cold boot's CPU time. The
build compiles them once, under Node, in the Pyodide the site ships, as *checked* hash-based .pyc files:
Python compares each with the hash of its source and compiles the source itself when they differ, so a stale
file can cost time, never change what runs.

- assets/python-stdlib.zip: Pyodide's python_stdlib.zip (every entry as it is) plus a .pyc beside each module
  that Python's start, numpy and the grader import (the zip importer looks for `name.pyc` next to `name.py`).
  The worker starts Python from it (loadPyodide's stdLibURL) instead of Pyodide's own.
- assets/python-bytecode.zip: numpy's and the grader's bytecode, unpacked (compressed itself: servers do not
  compress zips) at the root of Pyodide's file system before the worker imports them.
"""

import base64
import json
import shutil
import tempfile
import zipfile
from pathlib import Path

from grader.pyodide.dist import LOCK_FILE, PYODIDE_VERSION
from grader.pyodide.run import run_in_pyodide
from sitebuild.cache import digest

BYTECODE_FILE = "python-bytecode.zip"
STDLIB_FILE = "python-stdlib.zip"
PYODIDE_STDLIB = "python_stdlib.zip"  # Pyodide's own, in its distribution
STDLIB_ROOT = "/lib/python312.zip/"  # where Pyodide's Python finds it
GRADER_DIR = "grader-core"  # under /home/pyodide/, where worker.js writes the grader's files
NODE_SECONDS = 300
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the zip's entries' dates: the same bytes for the same bytecode

# Imports what a worker imports while it boots, then every grader.core module (some are imported by a run
# only), and returns a checked hash-based .pyc for each module loaded: {"files": {path: pyc}} for numpy's and
# the grader's (where the file-system importer looks for them), {"stdlib": {name in the zip: pyc}} for those
# the zip importer loaded from the standard library (frozen ones are bytecode already).
COMPILE = f"""
import base64, importlib, importlib.util, json, os, py_compile, sys, zipimport
import dataclasses, linecache, signal, traceback  # what the worker's glue (worker.js) imports itself
sys.path.insert(0, "/home/pyodide/{GRADER_DIR}")
import numpy
for name in sorted(os.listdir("/home/pyodide/{GRADER_DIR}/grader/core")):
    if name.endswith(".py") and name != "__init__.py":
        importlib.import_module("grader.core." + name[:-3])
roots = (os.path.dirname(numpy.__file__) + "/", "/home/pyodide/{GRADER_DIR}/")
files, stdlib = {{}}, {{}}
for module in list(sys.modules.values()):
    source = getattr(module, "__file__", None) or ""
    if not source.endswith(".py"):
        continue
    if source.startswith(roots):
        target = importlib.util.cache_from_source(source)
        py_compile.compile(source, cfile=target, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        with open(target, "rb") as pyc:
            files[target] = base64.b64encode(pyc.read()).decode()
    elif source.startswith("{STDLIB_ROOT}") and isinstance(module.__loader__, zipimport.zipimporter):
        text = module.__loader__.get_data(source)
        code = compile(text, source, "exec", dont_inherit=True)
        pyc = importlib._bootstrap_external._code_to_hash_pyc(
            code, importlib.util.source_hash(text), checked=True)
        stdlib[source[len("{STDLIB_ROOT}"):-3] + ".pyc"] = base64.b64encode(pyc).decode()
json.dumps({{"files": files, "stdlib": stdlib}})
"""


def write_python_bytecode(dist, grader_files, assets, cache):
    """Write assets/python-bytecode.zip and assets/python-stdlib.zip, from `cache` (a DiskCache) when it holds
    them for this Pyodide and these files. grader_files: {"grader/...py": source}, as
    grader.pyodide.run.grader_core_files gives them."""
    key = digest(Path(__file__).read_bytes(), PYODIDE_VERSION, (dist / LOCK_FILE).read_bytes(),
                 *(part for path, source in sorted(grader_files.items()) for part in (path, source)))
    if cache.copy_folder(key, assets):
        return
    files = {f"{GRADER_DIR}/{path}": source for path, source in grader_files.items()}
    compiled = json.loads(run_in_pyodide(dist, files, COMPILE, NODE_SECONDS))
    with tempfile.TemporaryDirectory() as scratch:
        with zipfile.ZipFile(Path(scratch) / BYTECODE_FILE, "w") as bundle:
            for path in sorted(compiled["files"]):
                _add(bundle, path.lstrip("/"), base64.b64decode(compiled["files"][path]))
        with zipfile.ZipFile(dist / PYODIDE_STDLIB) as stdlib, \
                zipfile.ZipFile(Path(scratch) / STDLIB_FILE, "w") as bundle:
            for entry in stdlib.infolist():
                bundle.writestr(entry, stdlib.read(entry), compress_type=entry.compress_type)
            for name in sorted(compiled["stdlib"]):
                _add(bundle, name, base64.b64decode(compiled["stdlib"][name]))
        cache.put_folder(key, scratch)
        for name in (BYTECODE_FILE, STDLIB_FILE):
            shutil.copyfile(Path(scratch) / name, assets / name)


def _add(bundle, name, data):
    bundle.writestr(zipfile.ZipInfo(name, FIXED_TIME), data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)

"""The bytecode of numpy's and the grader's modules, compiled at build time in the site's own Pyodide.

Pyodide's numpy wheel ships no bytecode, so each grading worker would compile the modules `import numpy`
loads (a few tenths of a second of every boot). The build compiles them once, under Node, in the Pyodide
the site ships, as *checked* hash-based .pyc files: Python in the browser compares each with the hash of
its source and compiles the source itself when they differ, so a stale file can cost time, never change
what runs. The worker unpacks the zip (compressed itself: servers do not compress zips) at the root of
Pyodide's file system before it imports numpy.
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
GRADER_DIR = "grader-core"  # under /home/pyodide/, where worker.js writes the grader's files
NODE_SECONDS = 300
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the zip's entries' dates: the same bytes for the same bytecode

# Imports what a worker imports while it boots, then every grader.core module (some are imported by a run
# only), and writes a checked hash-based .pyc for each module of numpy and of the grader that is loaded.
COMPILE = f"""
import base64, importlib, importlib.util, json, os, py_compile, sys
sys.path.insert(0, "/home/pyodide/{GRADER_DIR}")
import numpy
for name in sorted(os.listdir("/home/pyodide/{GRADER_DIR}/grader/core")):
    if name.endswith(".py") and name != "__init__.py":
        importlib.import_module("grader.core." + name[:-3])
roots = (os.path.dirname(numpy.__file__) + "/", "/home/pyodide/{GRADER_DIR}/")
compiled = {{}}
for module in list(sys.modules.values()):
    source = getattr(module, "__file__", None) or ""
    if source.endswith(".py") and source.startswith(roots):
        target = importlib.util.cache_from_source(source)
        py_compile.compile(source, cfile=target, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        with open(target, "rb") as pyc:
            compiled[target] = base64.b64encode(pyc.read()).decode()
json.dumps(compiled)
"""


def write_python_bytecode(dist, grader_files, assets, cache):
    """Write assets/python-bytecode.zip, from `cache` (a DiskCache) when it holds it for this Pyodide and these
    files. grader_files: {"grader/...py": source}, as grader.pyodide.run.grader_core_files gives them."""
    key = digest(Path(__file__).read_bytes(), PYODIDE_VERSION, (dist / LOCK_FILE).read_bytes(),
                 *(part for path, source in sorted(grader_files.items()) for part in (path, source)))
    if cache.copy_folder(key, assets):
        return
    files = {f"{GRADER_DIR}/{path}": source for path, source in grader_files.items()}
    compiled = json.loads(run_in_pyodide(dist, files, COMPILE, NODE_SECONDS))
    with tempfile.TemporaryDirectory() as scratch:
        with zipfile.ZipFile(Path(scratch) / BYTECODE_FILE, "w") as bundle:
            for path in sorted(compiled):
                bundle.writestr(zipfile.ZipInfo(path.lstrip("/"), FIXED_TIME), base64.b64decode(compiled[path]),
                                compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
        cache.put_folder(key, scratch)
        shutil.copyfile(Path(scratch) / BYTECODE_FILE, assets / BYTECODE_FILE)

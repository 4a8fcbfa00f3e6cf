"""The top-level modules the site's Pyodide can import, read from the Pyodide distribution the site ships.

Offline grading refuses the others (see grader/learner/imports.py), so that a
submission gets the verdict it gets in the browser.  The distribution is the
npm `pyodide` package (node_modules/pyodide, installed by `npm ci`), the one
grader/pyodide/dist.py self-hosts:
- python_stdlib.zip holds the standard library's Python modules and packages;
- pyodide.asm.wasm exports a PyInit_<name> function for each built-in C module;
- pyodide-lock.json gives the modules each package provides; the page loads
  SITE_PACKAGES (and what they depend on), nothing else;
- and the page adds its own Python, the grader's core.
"""

import functools
import json
import re
import zipfile
from pathlib import Path

PYODIDE_FOLDER = Path(__file__).resolve().parents[2] / "node_modules" / "pyodide"
# A grader packaged without the distribution (gradescope build) carries the list, one name a line.
PACKAGED_LIST = Path(__file__).resolve().parent / "browser_modules.txt"
SITE_PACKAGES = ("numpy",)  # the packages the page loads (site/js/worker.js)
PAGE_MODULES = ("grader",)  # the page's own Python, the grader's core, which it puts on sys.path
# Modules the interpreter creates itself while starting, so without a PyInit_ function.
INTERPRETER_MODULES = ("builtins", "sys", "marshal", "_warnings")
BUILTIN_INIT = re.compile(rb"PyInit_([A-Za-z0-9_]+)")
MODULE_FILE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\.py|/__init__\.py)")


class BrowserModulesError(Exception):
    """The Pyodide distribution cannot be read; the message names the file and says why."""


def importable_modules():
    """The top-level modules a submission may import: the packaged list where there is one, else
    browser_modules()."""
    if PACKAGED_LIST.is_file():
        return frozenset(PACKAGED_LIST.read_text(encoding="utf-8").split())
    return browser_modules()


@functools.cache
def browser_modules(folder=PYODIDE_FOLDER, packages=SITE_PACKAGES):
    """The names of the top-level modules the page's Pyodide can import, as a frozenset."""
    folder = Path(folder)
    try:
        with zipfile.ZipFile(folder / "python_stdlib.zip") as stdlib:
            names = {match[1] for match in map(MODULE_FILE.fullmatch, stdlib.namelist()) if match}
        names |= {name.decode() for name in BUILTIN_INIT.findall((folder / "pyodide.asm.wasm").read_bytes())}
        lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
        todo = list(packages)
        while todo:
            package = lock[todo.pop()]
            names.update(package["imports"])
            todo.extend(package["depends"])
    except FileNotFoundError as exc:
        raise BrowserModulesError(f"{exc.filename} is missing (run `npm ci`)") from None
    except (OSError, zipfile.BadZipFile, ValueError, KeyError, TypeError) as exc:
        raise BrowserModulesError(f"{folder}: not a readable Pyodide distribution "
                                  f"({type(exc).__name__}: {exc})") from None
    return frozenset(names | set(INTERPRETER_MODULES) | set(PAGE_MODULES))

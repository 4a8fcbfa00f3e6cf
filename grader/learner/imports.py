"""The browser's import rule in the learner's process: the submission imports only what the page's Pyodide has.

Offline, the learner's code runs in CPython, which has modules the page's
Pyodide lacks (scipy and the rest of what is installed here, resource, fcntl,
...).  So that a file gets the same verdict in both places, an import in the
submission's own code (an import statement or importlib.import_module) of a
top-level module missing from Pyodide fails as it does there:
ModuleNotFoundError: No module named 'scipy'.  Imports that numpy or the
standard library make for it are not checked (they are the same code in
Pyodide).  This is about honest parity, not security: the learner's code
shares this process and can undo the rule; what confines it is the sandbox.
"""

import builtins
import importlib
import sys

from grader.core.engine import SUBMISSION_FILENAME


def refuse_imports_missing_from(importable):
    """From now on, the submission's imports of a top-level module not in `importable` fail."""
    importable = frozenset(importable)
    original_import, original_import_module = builtins.__import__, importlib.import_module

    def check(name, importer_globals):
        top = name.partition(".")[0]
        if importer_globals.get("__file__") == SUBMISSION_FILENAME and top not in importable:
            raise ModuleNotFoundError(f"No module named {top!r}", name=top)

    def browser_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and globals is not None:
            check(name, globals)
        return original_import(name, globals, locals, fromlist, level)

    def browser_import_module(name, package=None):
        if not name.startswith("."):
            check(name, sys._getframe(1).f_globals)
        return original_import_module(name, package)

    builtins.__import__, importlib.import_module = browser_import, browser_import_module

"""Run the hidden tests as the page does, for `validate` and the rules `check` and the build apply.

On an exercise's page the hidden tests run in Pyodide, where none of the exercise's files exist:
a test that reads solution.py, a mutant or a data file beside tests.py passes offline and fails
for every learner.  `hide_folders` makes those folders unreadable to the process that runs the
tests (an audit hook: every open, listing and import by path), with the error the page would give
and a mark `validate` recognises to name it in one line (`read_hidden_file`).

`vary_process_state` reseeds Python's and numpy's global generators from fresh entropy, so that
two gradings of one submission start from different states: a test that draws from them (or
depends on anything else left in the process) shows up in validate's determinism check.
"""

import errno
import os
import random
import re
import sys

MARK = "not on the page: the hidden tests run without the exercise's files"
_EVENTS = {"open", "os.listdir", "os.scandir", "os.chdir"}
_HIDDEN_READ = re.compile(re.escape(MARK) + r": '([^']*)'")


def hide_folders(folders):
    """From now on, this process cannot open, list or import anything inside `folders` (FileNotFoundError)."""
    roots = tuple(os.path.realpath(folder) + os.sep for folder in folders)
    if not roots:
        return
    busy = []  # realpath may itself raise audit events: those are not checked again

    def hook(event, args):
        if event not in _EVENTS or busy or not args or not isinstance(args[0], (str, bytes, os.PathLike)):
            return
        busy.append(True)
        try:
            path = os.fsdecode(args[0])
            hidden = (os.path.realpath(path) + os.sep).startswith(roots)
        except (TypeError, ValueError, OSError):
            hidden = False
        finally:
            busy.pop()
        if hidden:
            raise FileNotFoundError(errno.ENOENT, MARK, path)

    sys.addaudithook(hook)


def read_hidden_file(text):
    """The path a hidden-file error in `text` (a traceback or a message) names, or None."""
    found = _HIDDEN_READ.search(text)
    return found and found.group(1)


def vary_process_state():
    """Reseed the global generators from fresh entropy (see the module's docstring)."""
    random.seed(os.urandom(16))
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(int.from_bytes(os.urandom(4), "little"))

"""The files of a student's upload folder, at any depth (`sub/hw3/softmax.py`), never through a link.

A link to a file or a special file is listed like a file, so that reading it is refused with the reason
(grader/submission.py); a linked folder is not entered (os.walk does not follow links); folders that
archivers and tools add (`__MACOSX`, `__pycache__`) and hidden entries are skipped.
"""

import os

MAX_DEPTH = 8
MAX_FILES = 2000  # a student's upload with more is cut: a class folder holds hand-ins, not datasets
SKIPPED = ("__MACOSX", "__pycache__", ".ipynb_checkpoints")


def files_under(folder):
    """{relative path: path} of the files under `folder`, in sorted order."""
    found = {}
    top = os.fspath(folder)
    for here, folders, names in os.walk(top):
        depth = 0 if here == top else os.path.relpath(here, top).count(os.sep) + 1
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in SKIPPED
                            and depth < MAX_DEPTH)
        for name in sorted(names):
            if not name.startswith(".") and len(found) < MAX_FILES:
                path = os.path.join(here, name)
                found[os.path.relpath(path, top)] = path
    return dict(sorted(found.items()))

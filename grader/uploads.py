"""Finding a student's file for an exercise in an upload that may hold folders.

Students upload a folder as often as its files (`sub/hw3/softmax.py` where `softmax.py` is expected): a
file at the top of the upload is taken as it is; otherwise the nested folders are searched for it, and the
one file found is graded.  Two or more in different folders are ambiguous: nothing is guessed, the reason
names them.  Links to folders are not followed, hidden folders (`.git`) and `__MACOSX` (macOS archive
residue) are skipped, and the search stops at a depth and a number of entries, so that a huge or
hostile upload cannot keep the grader busy.
"""

import os

from grader.submission import SubmissionError, display

MAX_DEPTH = 8
MAX_ENTRIES = 10_000
SKIPPED_FOLDERS = ("__MACOSX",)


def locate(folder, names):
    """The path, relative to `folder`, of the student's file: the first of `names` at the top of `folder`,
    else the only file named one of `names` in its nested folders; None when there is none.
    SubmissionError when several nested files match, or the upload is too large to search."""
    for name in names:
        if os.path.lexists(os.path.join(folder, name)):
            return name
    found, seen = [], 0
    for path, folders, files in os.walk(folder):
        depth = os.path.relpath(path, folder).count(os.sep) + 1
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in SKIPPED_FOLDERS
                            and depth < MAX_DEPTH)
        seen += len(folders) + len(files)
        if seen > MAX_ENTRIES:
            raise SubmissionError(display(names[0]), f"not searched for: the upload holds more than "
                                                     f"{MAX_ENTRIES:,} files and folders")
        found += [os.path.relpath(os.path.join(path, name), folder) for name in names if name in files]
    if len(found) > 1:
        listed = ", ".join(display(path) for path in sorted(found))
        raise SubmissionError(display(names[0]), f"found in {len(found)} places ({listed}); upload only one")
    return found[0] if found else None

"""Canvas's "Download Submissions": flat files `name_userid_submissionid_filename`.

`name` is Canvas's (lastfirst, lower case), `_LATE` follows it when Canvas marked the hand-in late
(`doe_jane_LATE_12345_67890_softmax.py`), and a re-uploaded file may be renamed `softmax-1.py`.
Canvas's file names carry no time.
"""

import os
import re

from grader.instructor.classfolder.handin import HandIn, student
from grader.submission import display

NAME = re.compile(r"(?P<name>[^._].*?)(?P<late>_LATE)?_(?P<user>\d+)_(?P<submission>\d+)_(?P<file>.+)", re.DOTALL)
DESCRIPTION = "Canvas export (files name_userid_submissionid_file)"


def matches(entry):
    return NAME.fullmatch(entry) is not None


def hand_ins(folder, entries):
    """([HandIn], [(entry, why not graded)]) of the top-level `entries` of `folder`."""
    by_user, not_graded = {}, []
    for entry in entries:
        match = NAME.fullmatch(entry)
        path = os.path.join(folder, entry)
        if match is None or os.path.isdir(path):
            not_graded.append((display(entry), "not named as in a Canvas export (name_userid_submissionid_file)"))
            continue
        user = match["user"]
        name, files, late = by_user.get(user, (match["name"], {}, False))
        files[match["file"]] = path
        by_user[user] = (name, files, late or match["late"] is not None)
    found = [HandIn(display(f"{name}_{user}"), student(user, display(name)), files, late_marker=late)
             for user, (name, files, late) in by_user.items()]
    return found, not_graded

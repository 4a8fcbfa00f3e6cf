"""Moodle's "Download all submissions": a folder per participant, `Full Name_id_assignsubmission_file_/`
(or, without "download submissions in folders", flat files `Full Name_id_assignsubmission_file_name`).

`id` is Moodle's participant id; the files may be nested in the folder.  Moodle's download carries no
submission time (give them with --times, e.g. from the grading worksheet).
"""

import os
import re

from grader.instructor.classfolder.handin import HandIn, student
from grader.instructor.classfolder.walk import files_under
from grader.submission import display

NAME = re.compile(r"(?P<name>.+?)_(?P<id>\d+)_(?P<plugin>assignsubmission_[a-z]+)_(?P<file>.*)", re.DOTALL)
DESCRIPTION = "Moodle export (a folder per participant: Full Name_id_assignsubmission_file_)"


def matches(entry):
    return NAME.fullmatch(entry) is not None


def hand_ins(folder, entries):
    """([HandIn], [(entry, why not graded)]) of the top-level `entries` of `folder`."""
    by_id, not_graded = {}, []
    for entry in entries:
        match = NAME.fullmatch(entry)
        if match is None:
            not_graded.append((display(entry), "not named as in a Moodle export "
                                               "(Full Name_id_assignsubmission_file_)"))
            continue
        path = os.path.join(folder, entry)
        name, files = by_id.setdefault(match["id"], (match["name"], {}))
        if match["file"]:
            files[match["file"]] = path  # a flat download: the file's own name follows the prefix
        elif os.path.isdir(path) and not os.path.islink(path):
            files.update(files_under(path))
        else:
            files[entry] = path  # a link or a file where the folder should be: refused when read
    # The name Moodle gives the participant's folder, which its feedback upload expects back.
    found = [HandIn(display(f"{name}_{participant}_assignsubmission_file_"), student(participant, display(name)),
                    files) for participant, (name, files) in by_id.items()]
    return found, not_graded

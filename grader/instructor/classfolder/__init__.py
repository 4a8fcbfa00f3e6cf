"""The class folder an LMS export makes, recognised from its names: which layout, and each student's hand-in.

    gradescope  a folder per submission and submission_metadata.yml (grader/instructor/classfolder/gradescope.py)
    moodle      a folder per participant: Full Name_id_assignsubmission_file_ (moodle.py)
    canvas      flat files name_userid_submissionid_file, _LATE when late (canvas.py)
    plain       a folder per student (or, for one exercise, a NAME.py file each): grader/instructor/batch.py

The first that fits wins: Gradescope's metadata file, then any Moodle name, then Canvas names for
most of the entries; anything else is a plain folder.
"""

from grader.instructor.classfolder import canvas, gradescope, moodle
from grader.instructor.classfolder.gradescope import MetadataError
from grader.instructor.classfolder.handin import (NO_SUBMISSION, HandIn, Learner, Submission, about_name, learner,
                                                  learners_of, one_per_student, pick_file, student)

__all__ = ["NO_SUBMISSION", "HandIn", "Learner", "MetadataError", "Submission", "about_name", "describe", "detect",
           "hand_ins", "learner", "learners_of", "one_per_student", "pick_file", "student"]

LAYOUTS = {"gradescope": gradescope, "moodle": moodle, "canvas": canvas}
PLAIN = "plain"
PLAIN_DESCRIPTION = "plain folder (a folder, or a .py file, per student)"


def detect(entries):
    """The layout of a class folder whose top-level entries (not hidden) are `entries`."""
    if gradescope.METADATA in entries:
        return "gradescope"
    if any(moodle.matches(entry) for entry in entries):
        return "moodle"
    if 2 * sum(canvas.matches(entry) for entry in entries) > len(entries):
        return "canvas"
    return PLAIN


def describe(layout):
    return LAYOUTS[layout].DESCRIPTION if layout in LAYOUTS else PLAIN_DESCRIPTION


def hand_ins(layout, folder, entries):
    """([HandIn], [(entry, why not graded)]) of an export of `layout` (not plain)."""
    return LAYOUTS[layout].hand_ins(folder, entries)

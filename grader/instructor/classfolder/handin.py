"""One student's hand-in as an LMS export lays it out (who, when, which files), and what a batch grades
of it: a Learner, one student's file for one exercise.

A HandIn's `files` maps each file's name as the student handed it in (a relative path:
`sub/hw3/softmax.py`) to where it is in the class folder; `pick_file` finds an exercise's file among them.
"""

import dataclasses
import hashlib
import os
import re

from grader.submission import (NOTEBOOK_SUFFIX, SubmissionError, accepted_names, decode_submission, display,
                               read_submission)

RENAMED = re.compile(r"-\d+(?=\.[^./]+$)")  # Canvas names a re-upload softmax-1.py
NO_SUBMISSION = "no submission"


@dataclasses.dataclass(frozen=True)
class HandIn:
    name: str              # unique in the class folder: the results' "submission"
    student: dict          # {"id", "name", "email", "login"}: the results' "student"
    files: dict            # name handed in -> path in the class folder
    submitted_at: str = None   # ISO 8601 with an offset, when the export has it
    late_marker: bool = False  # the LMS marked it late (Canvas's _LATE)

    @property
    def about(self):
        """The fields of the results records of this hand-in (see grader/instructor/records.py)."""
        return {"student": self.student, "submitted_at": self.submitted_at, "late_marker": self.late_marker}


@dataclasses.dataclass(frozen=True)
class Submission:
    name: str          # the learner: the file's name, or the folder's (shown with escapes, see `display`)
    path: str          # the file graded
    inner: str = None  # for a learner's folder: the graded file's name within it
    folder: str = None  # the class folder: `path` is read from it without following a link
    problem: str = None  # why there is no file to read (none handed in, or several that could be it)

    def read(self):
        """(sha256 of the file's bytes, its Python source, [notes for the feedback: a notebook's IPython lines
        dropped]); SubmissionError with the reason it cannot be graded."""
        if self.problem:
            raise SubmissionError(self.name, self.problem)
        data = read_submission(self.path, self.folder)
        return (hashlib.sha256(data).hexdigest(), *decode_submission(data, self.path))

    def reason(self, error):
        return f"{self.inner}: {error.reason}" if self.inner else error.reason


@dataclasses.dataclass(frozen=True)
class Learner:
    """One learner's file for one exercise; `submission` reads it (it may be missing)."""
    exercise_id: str
    submission: Submission
    about: dict = None  # who and when: the records' "student", "submitted_at", "late_marker"


def student(student_id, name, email=None, login=None):
    return {"id": student_id, "name": name, "email": email, "login": login}


def about_name(name):
    """The record fields of a learner known by a name only (a plain folder): the name is the id."""
    shown = name.removesuffix(".py") or name
    return {"student": student(shown, shown), "submitted_at": None, "late_marker": False}


def learners_of(hand_ins, assignment, folder, entry_file=None, single=False):
    """[Learner]: each hand-in's file for each exercise of `assignment`.
    For one exercise (`single`), the --entry-file, else the part's file name, else the only .py file."""
    learners = []
    for hand_in in hand_ins:
        for part in assignment.parts:
            wanted = entry_file if single and entry_file else part.file_name
            inner, path, problem = pick_file(hand_in.files, wanted, any_python=single and not entry_file)
            if inner is None:
                submission = Submission(hand_in.name, os.fspath(folder), folder=folder,
                                        problem=problem or f"{display(wanted)}: no such file")
            else:
                submission = Submission(hand_in.name, path, display(inner), folder)
            learners.append(Learner(part.exercise.id, submission, hand_in.about))
    return learners


def pick_file(files, wanted, any_python=False):
    """(name handed in, path, None) of the file named `wanted` at any depth of `files` (a re-upload's -N
    suffix aside; a notebook may stand for a .py file, which wins over it), or of the only .py file (else
    notebook) when `any_python`; (None, None, why not) when several could be it (which one is meant is not
    guessed); (None, None, None) when none is."""
    names = accepted_names(wanted) if wanted else ()
    found = [name for name in files if RENAMED.sub("", os.path.basename(name)) in names]
    found = [name for name in found if not name.endswith(NOTEBOOK_SUFFIX)] or found
    if not found and any_python:
        found = ([name for name in files if name.endswith(".py")]
                 or [name for name in files if name.endswith(NOTEBOOK_SUFFIX)])
        if len(found) > 1:
            return None, None, (f"{len(found)} .{found[0].rpartition('.')[2]} files ({_listed(found)}); "
                                "name the one to grade with --entry-file")
    if len(found) > 1:
        return None, None, f"{len(found)} files could be {display(wanted)} ({_listed(found)}): hand in one"
    if not found:
        return None, None, None
    return found[0], files[found[0]], None


def _listed(names):
    return ", ".join(display(name) for name in sorted(names))

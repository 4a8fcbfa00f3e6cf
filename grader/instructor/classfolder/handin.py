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

NO_SUBMISSION = "no submission"
NO_SUCH_FILE = ": no such file"  # the end of a `missing` reason: the student's hand-in holds no file for it


def handed_in_nothing(record):
    """Whether `record` is 0 points for a file the student did not hand in (rather than one handed in that
    could not be graded: not UTF-8, a link, two candidates ...)."""
    missing = record.get("missing")
    return missing is not None and (missing == NO_SUBMISSION or missing.endswith(NO_SUCH_FILE))


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
    superseded: tuple = ()  # the earlier uploads of the file graded (Canvas's softmax.py for softmax-1.py)
    several: tuple = ()  # the names of a student's hand-ins when there are several: none is graded

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
    """The record fields of a learner known by a name only (a plain folder): the name, less its .py or
    .ipynb, is the id (`ada.ipynb` is student ada)."""
    shown = name.removesuffix(".py").removesuffix(NOTEBOOK_SUFFIX) or name
    return {"student": student(shown, shown), "submitted_at": None, "late_marker": False}


def learner(exercise_id, submission, about):
    """The Learner of `submission`; its record also says which re-uploads it superseded (`reupload`)."""
    if submission.superseded:
        about = {**about, "reupload": {"graded": submission.inner, "superseded": list(submission.superseded)}}
    return Learner(exercise_id, submission, about)


def learners_of(hand_ins, assignment, folder, entry_file=None, single=False):
    """[Learner]: each hand-in's file for each exercise of `assignment`.
    For one exercise (`single`), the --entry-file, else the part's file name, else the only .py file."""
    learners = []
    for hand_in in hand_ins:
        for part in assignment.parts:
            wanted = entry_file if single and entry_file else part.file_name
            picked = pick_file(hand_in.files, wanted, any_python=single and not entry_file)
            if picked.inner is None:
                submission = Submission(hand_in.name, os.fspath(folder), folder=folder,
                                        problem=picked.problem or f"{display(wanted)}{NO_SUCH_FILE}")
            else:
                submission = Submission(hand_in.name, picked.path, display(picked.inner), folder,
                                        superseded=picked.superseded)
            learners.append(learner(part.exercise.id, submission, hand_in.about))
    return learners


@dataclasses.dataclass(frozen=True)
class Picked:
    """The file `pick_file` found (`inner`: its name handed in, `path`), or why none (`problem`, or None
    when there is none); `superseded`: the earlier uploads of the file it found, oldest first."""
    inner: str = None
    path: str = None
    problem: str = None
    superseded: tuple = ()


def pick_file(files, wanted, any_python=False):
    """The Picked file named `wanted` at any depth of `files`, or a re-upload of it (see `upload_number`;
    a notebook may stand for a .py file, which wins over it), or the only .py file (else notebook) when
    `any_python`.  Several that could be it are a problem (which one is meant is not guessed), unless they
    are one folder's uploads of one name: the last upload is picked, the others are superseded."""
    names = accepted_names(wanted) if wanted else ()
    found = {name: number for name in files
             if (number := upload_number(os.path.basename(name), names)) is not None}
    found = {name: number for name, number in found.items() if not name.endswith(NOTEBOOK_SUFFIX)} or found
    if not found and any_python:
        found = dict.fromkeys([name for name in files if name.endswith(".py")]
                              or [name for name in files if name.endswith(NOTEBOOK_SUFFIX)], 0)
        if len(found) > 1:
            return Picked(problem=f"{len(found)} .{next(iter(found)).rpartition('.')[2]} files ({_listed(found)}); "
                                  "name the one to grade with --entry-file")
    if not found:
        return Picked()
    uploads = sorted(found, key=found.get)
    last = uploads[-1]
    if len({os.path.dirname(name) for name in found}) > 1 or list(found.values()).count(found[last]) > 1:
        return Picked(problem=f"{len(found)} files could be {display(wanted)} ({_listed(found)}): hand in one")
    return Picked(last, files[last], superseded=tuple(display(name) for name in uploads[:-1]))


def upload_number(file_name, names):
    """0 when `file_name` is one of `names`, N when it is a re-upload of one as an LMS names it (Canvas:
    softmax-1.py, softmax-2.py for softmax.py), else None.  The name asked for comes first: for
    hw-3.py, hw-3.py is the file itself and hw-3-1.py its re-upload."""
    if file_name in names:
        return 0
    for name in names:
        stem, dot, suffix = name.rpartition(".")
        stem, suffix = (stem, dot + suffix) if stem else (name, "")
        renamed = re.fullmatch(re.escape(stem) + r"-(\d+)" + re.escape(suffix), file_name)
        if renamed:
            return int(renamed[1])
    return None


def _listed(names):
    return ", ".join(display(name) for name in sorted(names))


def one_per_student(learners, folder):
    """`learners` with a student's several hand-ins for one exercise (`ada.py` and `ada/`, two of an export's
    hand-ins joined to one roster row) made one Learner that is not graded and names them all: the
    student's record, 0 points, says why."""
    groups = {}
    for each in learners:
        groups.setdefault((each.exercise_id, each.about["student"]["id"]), []).append(each)
    names = {each.submission.name for each in learners}
    merged, done = [], set()
    for each in learners:
        key = (each.exercise_id, each.about["student"]["id"])
        group = groups[key]
        if len(group) == 1:
            merged.append(each)
        elif key not in done:
            done.add(key)
            several = sorted(member.submission.name for member in group)
            name = key[1]
            while name in names - set(several):
                name += " [several hand-ins]"
            problem = (f"{len(several)} hand-ins for one student ({', '.join(several)}); keep one and grade "
                       "again")
            about = {k: v for k, v in each.about.items() if k != "reupload"}
            merged.append(Learner(each.exercise_id, Submission(name, os.fspath(folder), folder=folder,
                                                               problem=problem, several=tuple(several)), about))
    return merged

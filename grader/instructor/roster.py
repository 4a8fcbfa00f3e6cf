"""The class roster (`--roster FILE`): who should have handed in, and their LMS identity.

A CSV with the columns id and name, and optionally email, login (the LMS login), sis_id and section:

    id,name,email,login
    10000,Ada Lovelace,ada@example.com,alovelace

Each row is checked as it is read (grader/instructor/tables.py: no cell over what a results record holds,
no control character); an id, an email (whatever its case) or a login on two rows is refused, with both lines.
A hand-in joins the roster row with the same id (the LMS user id the export carries), else the same
email, else the same login; the row then gives its id, name, email and login.  A roster student with no
hand-in gets a record of 0 points, "no submission"; a hand-in matching no row is graded and listed.

Canvas's own gradebook export is a roster as it is: Student, ID, SIS User ID, SIS Login ID, Section (its
other columns are not read), and the rows it adds under the header that name no student ("Points Possible",
"Manual Posting") are skipped.
"""

import dataclasses
import os

from grader.instructor.classfolder.handin import NO_SUBMISSION, Learner, Submission
from grader.instructor.records import NAME_LIMIT
from grader.instructor.tables import TableError, read_table, shown_value
from grader.submission import display

COLUMNS = {"id": ("id", "student id", "sid", "user id"), "name": ("name", "full name", "student"),
           "email": ("email", "email address"), "login": ("login", "lms login", "username", "sis login id"),
           "sis_id": ("sis id", "sis user id"), "section": ("section",)}
REQUIRED = ("id", "name")
CANVAS_EXTRA_ROWS = ("points possible", "manual posting")  # Canvas's export: rows of the assignments, not students
ABSENT_ROOM = 100  # of a record's name left for " (ID)" and " [roster]": a student with no hand-in is "NAME (ID)"


@dataclasses.dataclass(frozen=True)
class Roster:
    students: tuple    # student dicts ({"id", "name", "email", "login"}, plus sis_id, section when given)

    def find(self, student):
        """The roster's student that `student` (from a hand-in) is, or None."""
        for key in ("id", "email", "login"):
            value = student.get(key)
            if value:
                for listed in self.students:
                    if listed[key] and _same(key, listed[key], value):
                        return listed
        return None


def read_roster(path):
    students, lines, shown = [], {}, display(path)
    for line, row in read_table(path, COLUMNS, REQUIRED):
        if not row["id"] and ((row["name"] or "").casefold() in CANVAS_EXTRA_ROWS or not any(row.values())):
            continue  # a row of Canvas's export about the assignments (their points, their posting policy)
        for column in REQUIRED:
            if not row[column]:
                raise TableError(f"{shown}:{line}: no {column}")
        if len(row["name"]) + len(row["id"]) > NAME_LIMIT - ABSENT_ROOM:
            raise TableError(f"{shown}:{line}: the name and the id have {len(row['name']) + len(row['id']):,} "
                             f"characters; at most {NAME_LIMIT - ABSENT_ROOM:,} together (a student with no "
                             "hand-in is recorded as \"NAME (ID)\")")
        for column in ("id", "email", "login"):  # what a hand-in is joined by: one student each
            value = row[column] and (row[column].casefold() if column == "email" else row[column])
            if (column, value) in lines:
                raise TableError(f"{shown}:{line}: {column} {shown_value(row[column])} is already on line "
                                 f"{lines[column, value]}")
            if value:
                lines[column, value] = line
        students.append({key: value for key, value in row.items() if value is not None or key in ("email", "login")})
    if not students:
        raise TableError(f"{path}: lists no student")
    return Roster(tuple(students))


def join(roster, students):
    """({hand-in name: its student, from the roster when listed, with "in_roster"}, [roster students with
    no hand-in]) for `students` ({hand-in name: student from the export})."""
    joined, seen = {}, set()
    for name, student in students.items():
        listed = roster.find(student)
        joined[name] = {**(listed or student), "in_roster": listed is not None}
        if listed is not None:
            seen.add(listed["id"])
    return joined, [{**s, "in_roster": True} for s in roster.students if s["id"] not in seen]


def _same(key, listed, value):
    return listed.casefold() == value.casefold() if key == "email" else listed == value


def with_roster(learners, roster, parts, folder):
    """`learners` whose students are joined to `roster`, and a learner per exercise (`parts`) for each
    roster student with no hand-in, to be recorded as 0 points, "no submission"."""
    joined, absent = join(roster, {learner.submission.name: learner.about["student"] for learner in learners})
    learners = [dataclasses.replace(learner, about={**learner.about, "student": joined[learner.submission.name]})
                for learner in learners]
    names = {learner.submission.name for learner in learners}
    for student in absent:
        name = f"{student['name']} ({student['id']})"
        while name in names:
            name += " [roster]"
        names.add(name)
        about = {"student": student, "submitted_at": None, "late_marker": False}
        learners += [Learner(part.exercise.id, Submission(name, os.fspath(folder), folder=folder,
                                                          problem=NO_SUBMISSION), about) for part in parts]
    return learners


"""Grade files an LMS imports as they are: each student's weighted total as one assignment column, one row per
student, and no row the LMS could give to the wrong student.

    canvas_import.csv  Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then
                       the assignment (a "Points Possible" row first, as Canvas's own export has); Canvas
                       matches a row by ID (the Canvas user id of a Canvas export or the roster), else by
                       SIS User ID or SIS Login ID.
    moodle_import.csv  Moodle's "Import grades: CSV file": Full name, then the columns Moodle can identify a
                       user by (Email address, Username, ID number) that every row fills, then the assignment.
                       Moodle's importer gives a row whose identifying cell is blank to the student of the row
                       before (or stops at the first row), so a column blank for anyone is left out.  The
                       student id (Moodle's participant id for a Moodle download) is not Moodle's user id and
                       is not written: mapped to "User ID" it would name other users.
    not_imported.csv   the hand-ins in neither: students the roster does not list, and several hand-ins with
                       one id (from results of an older batch), with why.

Every text cell is a spreadsheet-safe cell (grader/instructor/spreadsheet.py).
"""

import csv
import io

from grader.instructor.spreadsheet import safe_cell

POINTS_POSSIBLE = "    Points Possible"  # how Canvas's export names its second row
MOODLE_IDENTIFIERS = {"Email address": "email", "Username": "login", "ID number": "sis_id"}  # header: field


def canvas(students, plan):
    students, _ = split(students)
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", plan.title]]
    if students:
        rows.append([POINTS_POSSIBLE, "", "", "", "", _number(students[0].max_total)])
    for student in students:
        who = student.identity
        rows.append([who["name"], who["id"], who.get("sis_id") or "", who["login"] or "", who.get("section") or "",
                     _number(student.total)])
    return _csv(rows)


def moodle(students, plan):
    students, _ = split(students)
    identifiers = [header for header, field in MOODLE_IDENTIFIERS.items()
                   if students and all(_identifies(student.identity.get(field)) for student in students)]
    rows = [["Full name", *identifiers, plan.title]]
    for student in students:
        who = student.identity
        rows.append([who["name"], *(who[MOODLE_IDENTIFIERS[header]] for header in identifiers),
                     _number(student.total)])
    return _csv(rows)


def not_imported(students, plan):
    _, left_out = split(students)
    rows = [["submission", "name", "id", "email", "login", plan.title, "why not imported"]]
    for student, why in left_out:
        who = student.identity
        rows.append([student.name, who["name"], who["id"], who["email"] or "", who["login"] or "",
                     _number(student.total), why])
    return _csv(rows)


def split(students):
    """([students the import files hold], [(student, why left out)]): a student the roster does not list
    has no place in the LMS's gradebook; several hand-ins of one id would be several rows for one student
    (the LMS keeps the last)."""
    ids = {}
    for student in students:
        ids.setdefault(student.identity["id"], []).append(student)
    imported, left_out = [], []
    for student in students:
        if student.identity.get("in_roster") is False:
            left_out.append((student, "not on the roster"))
        elif len(ids[student.identity["id"]]) > 1:
            left_out.append((student, f"{len(ids[student.identity['id']])} hand-ins have this id: grade the "
                                      "class again, which makes them one record"))
        else:
            imported.append(student)
    return imported, left_out


def _identifies(value):
    """Whether Moodle's importer takes `value` for a user: it skips a cell PHP's empty() holds true ("", "0")."""
    return bool(value) and value.strip() not in ("", "0")


def _csv(rows):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])  # totals are never negative: they stay numbers
    return buffer.getvalue()


def _number(value):
    return f"{value:g}"

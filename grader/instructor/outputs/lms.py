"""Grade files an LMS imports: each student's weighted total as one assignment column.

    canvas_import.csv  Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then
                       the assignment (a "Points Possible" row first, as Canvas's own export has); Canvas
                       matches a row by ID (the Canvas user id of a Canvas export or the roster), else by
                       SIS User ID or SIS Login ID.
    moodle_import.csv  Moodle's "Import grades: CSV file": Full name, Email address, Username, ID, ID number,
                       then the assignment; on import, identify users by email address (or username) and
                       map the last column to the grade item.

Every text cell is a spreadsheet-safe cell (grader/instructor/spreadsheet.py).
"""

import csv
import io

from grader.instructor.spreadsheet import safe_cell

POINTS_POSSIBLE = "    Points Possible"  # how Canvas's export names its second row


def canvas(students, plan):
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", plan.title]]
    if students:
        rows.append([POINTS_POSSIBLE, "", "", "", "", _number(students[0].max_total)])
    for student in students:
        who = student.identity
        rows.append([who["name"], who["id"], who.get("sis_id") or "", who["login"] or "", who.get("section") or "",
                     _number(student.total)])
    return _csv(rows)


def moodle(students, plan):
    rows = [["Full name", "Email address", "Username", "ID", "ID number", plan.title]]
    for student in students:
        who = student.identity
        rows.append([who["name"], who["email"] or "", who["login"] or "", who["id"], who.get("sis_id") or "",
                     _number(student.total)])
    return _csv(rows)


def _csv(rows):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])  # totals are never negative: they stay numbers
    return buffer.getvalue()


def _number(value):
    return f"{value:g}"

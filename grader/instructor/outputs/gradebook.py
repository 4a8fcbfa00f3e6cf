"""The gradebook CSV: one row per student, numbers a spreadsheet reads as numbers, and a feedback column."""

import csv
import io

from grader.instructor.outputs.feedback import one_line
from grader.instructor.spreadsheet import safe_cell


def render(students, plan):
    columns = (["student", "id", "email", "login", "total", "max_total", "percentage"]
               + [f"{exercise_id} score" for exercise_id in plan.weights]
               + (["late penalty", "overrides"] if plan.adjusts else []) + ["feedback"])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([safe_cell(column) for column in columns])
    for student in students:
        scores = [_number(student.records[e]["score"]) if e in student.records else "" for e in plan.weights]
        if plan.adjusts:  # weighted points: the late penalty taken (0 or more), what overrides changed (+ or -)
            scores += [_number(abs(student.changed(plan, "late"))), _number(student.changed(plan, "override"))]
        who = student.identity
        writer.writerow([safe_cell(who["name"]), safe_cell(who["id"]), safe_cell(who["email"] or ""),
                         safe_cell(who["login"] or ""), _number(student.total), _number(student.max_total),
                         f"{student.percentage:.2f}", *scores, safe_cell(one_line(student, plan))])
    return buffer.getvalue()


def _number(value):
    return f"{value:g}"

"""The class as the outputs see it: each student's record for each exercise, and the weighted totals."""

import dataclasses
import hashlib
import re

from grader.instructor.outputs.adjustments import adjusted


@dataclasses.dataclass(frozen=True)
class Plan:
    """The exercises, in order, and what each weighs in a student's total."""
    title: str
    weights: dict    # exercise id -> weight (its points count this many times)
    visibility: object = lambda exercise_id, test_name: "visible"  # when Gradescope shows a test
    late: object = None      # grader.instructor.late.LatePolicy, or None: no due date
    overrides: dict = dataclasses.field(default_factory=dict)  # (student id, exercise id) -> [Override]

    @classmethod
    def of(cls, assignment, overrides=()):
        return cls(assignment.title, {part.exercise.id: part.weight for part in assignment.parts},
                   assignment.test_visibility, assignment.late, _by_key(overrides))

    @classmethod
    def from_records(cls, records, title="Results", overrides=()):
        return cls(title, {record["exercise"]: 1 for record in records}, overrides=_by_key(overrides))

    @property
    def adjusts(self):
        """Whether points may differ from the graded ones (a due date, overrides): the outputs say by how much."""
        return self.late is not None or bool(self.overrides)

    def max_scores(self, records):
        """{exercise id: its max_score}, from the records: the highest, as a record leaves out the tests that
        failed through the exercise's fault on that submission (`exercise_bug`)."""
        most = {}
        for record in records:
            most[record["exercise"]] = max(most.get(record["exercise"], 0), record["max_score"])
        return most


@dataclasses.dataclass(frozen=True)
class Student:
    name: str          # the hand-in's name in the class folder (the records' "submission"): unique
    records: dict      # exercise id -> record (absent: not in the results)
    total: float       # weighted points
    max_total: float

    @property
    def identity(self):
        """Who this is: the records' "student" (id, name, email, login; grader/instructor/classfolder/), or, for records
        without one, the hand-in's name as id and name."""
        for record in self.records.values():
            if "student" in record:
                return record["student"]
        return {"id": self.name, "name": self.name, "email": None, "login": None}

    @property
    def shown_name(self):
        return self.identity["name"]

    @property
    def percentage(self):
        return 100 * self.total / self.max_total if self.max_total else 0.0

    def changed(self, plan, kind, exercise_id=None):
        """The weighted points the adjustments of `kind` ("late", "override") changed, in all or in one exercise."""
        return round(sum(plan.weights[exercise] * adjustment["change"]
                         for exercise, record in self.records.items() if exercise_id in (None, exercise)
                         for adjustment in record.get("adjustments", ()) if adjustment["kind"] == kind), 6) + 0.0

    @property
    def file_stem(self):
        """A safe, unique file name for this student: readable characters kept, a hash of the full name."""
        readable = re.sub(r"[^A-Za-z0-9_.-]+", "_", self.name).strip("._")[:60] or "student"
        return f"{readable}-{hashlib.sha256(self.name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def _by_key(overrides):
    grouped = {}
    for override in overrides:
        grouped.setdefault((override.student, override.exercise), []).append(override)
    return grouped


def class_results(records, plan):
    """[Student], sorted by name, their records with the overrides and late penalties of `plan` applied
    (grader/instructor/outputs/adjustments.py); a student without a record for an exercise gets 0 of its points.
    A student's maximum counts their own record's max_score: a test not graded for them (the exercise's bug) is
    not held against them."""
    records = [adjusted(record, plan) for record in records]
    max_scores = plan.max_scores(records)
    by_student = {}
    for record in records:
        by_student.setdefault(record["submission"], {})[record["exercise"]] = record
    students = []
    for name in sorted(by_student):
        mine = by_student[name]
        total = _sum(plan.weights[e] * mine[e]["score"] for e in plan.weights if e in mine)
        max_total = _sum(plan.weights[e] * (mine[e]["max_score"] if e in mine else max_scores.get(e, 0))
                         for e in plan.weights)
        students.append(Student(name, mine, total, max_total))
    return students


def _sum(numbers):
    total = sum(numbers)
    return round(total, 6)  # weights times points: no 0.30000000000000004 in a gradebook

"""The points the outputs show: as graded, then the instructor's overrides, then the late penalty.

The results keep the points as graded; this makes the copy of a record the outputs read, with its new
`score` (and a test's `score` and `overridden` for an override of one test) and `adjustments`: one entry per change,
{"kind": "override" or "late", "change": points (before the weight), "note": what and why}, which every
output shows, so that no change is silent (a late one also has "late": how late, the same for each exercise
handed in at one time).
"""

import copy

from grader.instructor.records import student_key


def adjusted(record, plan):
    """`record` as the outputs show it under `plan`'s overrides and late policy (itself when unchanged)."""
    student = student_key(record)
    overrides = plan.overrides.get((student, record["exercise"]), ())
    late = plan.late.lateness(student, record.get("submitted_at"), record.get("late_marker", False)) \
        if plan.late else None
    if not overrides and late is None:
        return record
    record = copy.deepcopy(record)
    notes = []
    for override in overrides:
        if override.test is None:
            continue
        test = next(t for t in record["tests"] if t["name"] == override.test)
        notes.append(_override(override, test["score"], f"test {override.test!r}"))
        test["score"], test["overridden"] = override.points, True
    score = sum(test["score"] for test in record["tests"])
    for override in overrides:
        if override.test is None:
            notes.append(_override(override, score, "the exercise"))
            score = override.points
    if late is not None:
        taken = round(score * late.fraction, 6)
        notes.append({"kind": "late", "change": -taken, "note": f"{late.note} (-{taken:g} points)", "late": late.note})
        score -= taken
    record["score"] = round(score, 6)
    record["adjustments"] = notes
    return record


def _override(override, before, what):
    return {"kind": "override", "change": round(override.points - before, 6),
            "note": f"override of {what}: {before:g} -> {override.points:g} points ({override.reason})"}

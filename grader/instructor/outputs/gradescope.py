"""Gradescope's autograder results.json for one student (its "Autograder Specifications" format).

One Gradescope test per hidden test, named "exercise: test", its points weighted like the total; a test that
failed through the exercise's fault (`exercise_bug`) is worth 0 there, its output saying it was not graded.
Control characters in names and outputs are spelled out (grader/text.py): Gradescope shows them as they are.
"""

import json

from grader.instructor.outputs.feedback import first_line, points
from grader.text import printable

OUTPUT_LIMIT = 8000  # characters of a test's output shown in Gradescope


def results(student, plan, note=None):
    """`note`: a last line of the top-level output (how the autograder ran the code)."""
    tests, seconds = [], 0.0
    for exercise_id, weight in plan.weights.items():
        record = student.records.get(exercise_id)
        if record is None:
            continue
        for test in record["tests"]:
            seconds += test["duration_ms"] / 1000
            worth = 0 if test.get("exercise_bug") else test["max_score"]
            tests.append({"name": printable(f"{exercise_id}: {test['name']}"), "score": round(weight * test["score"], 6),
                          "max_score": round(weight * worth, 6),
                          "status": "passed" if test["status"] == "passed" else "failed",
                          "output": _output(test),
                          "visibility": plan.visibility(exercise_id, test["name"])})
    lines = [_summary(exercise_id, record, plan) for exercise_id, record in
             ((e, student.records.get(e)) for e in plan.weights) if record is not None] + ([note] if note else [])
    return {"score": student.total, "execution_time": round(seconds, 3),
            "output": printable("\n".join(lines)), "tests": tests}


def _summary(exercise_id, record, plan):
    """The exercise's line of the top-level output, which Gradescope always shows: its points, or while some
    of its tests are not shown (visibility), only those of the tests shown, so that it reveals none of the others."""
    shown = [t for t in record["tests"] if plan.visibility(exercise_id, t["name"]) == "visible"]
    if len(shown) == len(record["tests"]):
        line = f"{exercise_id}: {points(record['score'])}/{points(record['max_score'])}"
    elif not shown:
        line = f"{exercise_id}: its {len(record['tests'])} test(s) are not shown yet"
    else:
        worth = sum(t["max_score"] for t in shown if not t.get("exercise_bug"))
        line = (f"{exercise_id}: {points(sum(t['score'] for t in shown))}/{points(worth)}"
                f" in the {len(shown)} test(s) shown; {len(record['tests']) - len(shown)} more not shown yet")
    return (line + (f" ({first_line(record['error'])})" if record["error"] else "")
            + "".join(f" [{adjustment['note']}]" for adjustment in record.get("adjustments", ()))
            + "".join(f"\n  {note}" for note in record.get("notes", ())))


def render(student, plan, note=None):
    return _json(results(student, plan, note))


def render_not_graded(why):
    """results.json when nothing could be graded: no points, and `why` for the student."""
    return _json({"score": 0, "output": printable(why), "tests": []})


def _json(results):
    return json.dumps(results, ensure_ascii=True, allow_nan=False, indent=2) + "\n"


def _output(test):
    if test["status"] == "passed":
        return ""
    verdict = "Not graded (not counted)" if test.get("exercise_bug") else \
        {"failed": "Failed", "error": "Error", "timeout": "Timed out"}[test["status"]]
    text = f"{verdict}: {test['message']}" if test["message"] else verdict
    if test.get("stdout"):
        text += "\n\nYour code printed:\n" + test["stdout"]
    return printable(text[:OUTPUT_LIMIT])

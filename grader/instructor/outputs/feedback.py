"""Feedback for one student, in Markdown: per exercise the score, then each test's name, verdict and message.

Everything that came from a submission or a student's name is shown as text: names are escaped, messages
and output go in code blocks fenced longer than any run of backticks they hold, and control characters are
spelled out (grader/text.py).
"""

import re

from grader.text import printable

VERDICTS = {"passed": "passed", "failed": "failed", "error": "error", "timeout": "timed out"}
OUTPUT_SHOWN = 2000  # characters of what the code printed, per exercise


def render(student, plan):
    lines = [f"# {escape(plan.title)}: feedback for {escape(student.name)}", "",
             f"**Total: {points(student.total)} / {points(student.max_total)} points "
             f"({student.percentage:.1f}%)**", ""]
    for exercise_id, weight in plan.weights.items():
        record = student.records.get(exercise_id)
        lines.append(f"## {escape(exercise_id)}")
        lines.append("")
        if record is None:
            lines += ["Not graded: no result for this exercise.", ""]
            continue
        weighted = f" (weight {points(weight)})" if weight != 1 else ""
        lines += [f"Score: {points(record['score'])} / {points(record['max_score'])}{weighted}", ""]
        if record.get("reupload"):
            lines += [escape(reupload_note(record)), ""]
        notes = [adjustment["note"] for adjustment in record.get("adjustments", ())] + record.get("notes", [])
        lines += [f"- **{escape(note[:1].upper() + note[1:])}**" for note in notes] + [""] * bool(notes)
        if record["error"]:
            lines += ["Your code could not be graded:", "", *code_block(record["error"]), ""]
        if "missing" in record:
            continue
        for test in record["tests"]:
            mark = "✓" if test["status"] == "passed" else "–" if test.get("exercise_bug") else "✗"
            lines.append(f"- {mark} **{escape(test['name'])}**: {test_verdict(test)}"
                         + (", points changed by your instructor" if test.get("overridden") else "") + ")")
            if test["status"] != "passed" and test["message"]:
                lines += ["", *("  " + line for line in code_block(test["message"])), ""]
        if record.get("stdout"):
            lines += ["", "What your code printed:", "", *code_block(record["stdout"][:OUTPUT_SHOWN]), ""]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def test_verdict(test):
    """'failed (0/2' or, for a test that failed through the exercise's fault, 'not graded: the exercise has a bug
    (not counted': a test's verdict and points, the closing bracket left to the caller."""
    if test.get("exercise_bug"):
        return "not graded: the exercise has a bug (not counted"
    return f"{VERDICTS[test['status']]} ({points(test['score'])}/{points(test['max_score'])}"


def one_line(student, plan):
    """The gradebook's feedback cell: each exercise's score and its first tests not passed."""
    parts = []
    for exercise_id in plan.weights:
        record = student.records.get(exercise_id)
        if record is None:
            parts.append(f"{exercise_id}: no result")
            continue
        text = f"{exercise_id}: {points(record['score'])}/{points(record['max_score'])}"
        if "missing" in record:
            text += f" ({record['missing']})"
        elif record["error"]:
            text += f" (could not load: {first_line(record['error'])})"
        else:
            missed = [f"{t['name']}: {first_line(t['message'])}" for t in record["tests"]
                      if t["status"] != "passed" and not t.get("exercise_bug")]
            if missed:
                text += " (" + "; ".join(missed[:3]) + (f"; and {len(missed) - 3} more" if len(missed) > 3 else "") + ")"
            not_graded = sum(bool(t.get("exercise_bug")) for t in record["tests"])
            if not_graded:
                text += f" ({not_graded} test(s) not graded: the exercise has a bug)"
        text += "".join(f" [{adjustment['note']}]" for adjustment in record.get("adjustments", ()))
        parts.append(text)
    return " | ".join(parts)


def reupload_note(record):
    """What a record of a re-uploaded file says of the uploads: which one was graded, which were not."""
    reupload = record["reupload"]
    return (f"Graded {reupload['graded']}, your last upload; not graded (superseded by it): "
            f"{', '.join(reupload['superseded'])}.")


def first_line(text, limit=160):
    line = (text.strip().splitlines() or [""])[0]
    return line if len(line) <= limit else line[:limit] + "…"


def points(value):
    return f"{value:g}"


def escape(text):
    """Markdown text that shows `text` literally, on one line."""
    text = printable(re.sub(r"[\r\n\x85\u2028\u2029]+", " ", text))
    return re.sub(r"([\\`*_\[\]<>&|~])", r"\\\1", text)


def code_block(text):
    text = printable(text)
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    return [fence + "text", *text.splitlines(), fence]

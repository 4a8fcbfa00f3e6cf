"""Feedback for one student as one self-contained HTML page (inline CSS, no script, no external asset):
the page an LMS shows as a feedback file.  Per exercise the score, then each test's verdict and message,
and what the code printed.  Everything from a record or a name is escaped (grader/instructor/outputs/html_report.py).
"""

from grader.instructor.outputs.feedback import OUTPUT_SHOWN, points, reupload_note, test_verdict
from grader.instructor.outputs.html_report import escape

STYLE = """
:root { color-scheme: light dark; --fg: #1d232a; --bg: #fff; --muted: #5b6670; --line: #d9dee3;
        --bad: #b3412f; --ok: #2d7a3e; --code: #f3f5f7; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e4e8ec; --bg: #15191d; --muted: #9aa5b1; --line: #333b44; --bad: #ef8a78; --ok: #7cc98a;
          --code: #1f252b; }
}
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto;
       max-width: 50rem; padding: 1rem; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 1.8rem; border-bottom: 1px solid var(--line); }
.muted { color: var(--muted); } .bad { color: var(--bad); } .ok { color: var(--ok); }
ul { padding-left: 1.1rem; } li { margin: .4rem 0; }
pre { background: var(--code); padding: .5rem .7rem; border-radius: 4px; white-space: pre-wrap;
      word-break: break-word; font-size: .85rem; }
"""


def render(student, plan):
    e = escape
    title = f"{plan.title}: feedback for {student.shown_name}"
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{e(title)}</title><style>{STYLE}</style></head><body>", f"<h1>{e(title)}</h1>",
             f"<p><strong>Total: {points(student.total)} / {points(student.max_total)} points "
             f"({student.percentage:.1f}%)</strong></p>"]
    for exercise_id, weight in plan.weights.items():
        parts += _exercise(exercise_id, weight, student.records.get(exercise_id))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _exercise(exercise_id, weight, record):
    e = escape
    parts = [f"<h2>{e(exercise_id)}</h2>"]
    if record is None:
        return parts + ['<p class="muted">Not graded: no result for this exercise.</p>']
    weighted = f" (weight {points(weight)})" if weight != 1 else ""
    parts.append(f"<p>Score: {points(record['score'])} / {points(record['max_score'])}{weighted}</p>")
    if record.get("reupload"):
        parts.append(f"<p>{e(reupload_note(record))}</p>")
    if record.get("notes"):
        parts.append("<ul>" + "".join(f"<li>{e(note)}</li>" for note in record["notes"]) + "</ul>")
    if record["error"]:
        parts.append(f'<p class="bad">Your code could not be graded:</p><pre>{e(record["error"])}</pre>')
    if "missing" in record:
        return parts
    items = []
    for test in record["tests"]:
        passed = test["status"] == "passed"
        mark = ('<span class="ok">✓</span>' if passed else '<span class="muted">–</span>' if test.get("exercise_bug")
                else '<span class="bad">✗</span>')
        message = f"<pre>{e(test['message'])}</pre>" if not passed and test["message"] else ""
        items.append(f"<li>{mark} <strong>{e(test['name'])}</strong>: {e(test_verdict(test))}){message}</li>")
    parts.append("<ul>" + "".join(items) + "</ul>")
    if record.get("stdout"):
        parts.append(f"<p>What your code printed:</p><pre>{e(record['stdout'][:OUTPUT_SHOWN])}</pre>")
    return parts

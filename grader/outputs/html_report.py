"""The class report: one self-contained HTML page (inline CSS, no script, no external asset).

Score distribution, then for each exercise every test's pass rate, its most common failure messages and
the students who do not pass it, then each student with where they are stuck (the first test not passed).
Everything from records is escaped (HTML, and control characters spelled out: grader/text.py).
"""

import collections
import html
import statistics

from grader.outputs.feedback import first_line, points
from grader.text import printable

BUCKETS = 10
COMMON_FAILURES = 3
STUDENTS_LISTED = 30

STYLE = """
:root { color-scheme: light dark; --fg: #1d232a; --bg: #fff; --muted: #5b6670; --line: #d9dee3;
        --bar: #2f6fb3; --bad: #b3412f; --ok: #2d7a3e; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e4e8ec; --bg: #15191d; --muted: #9aa5b1; --line: #333b44; --bar: #6ea8e6;
          --bad: #ef8a78; --ok: #7cc98a; }
}
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto;
       max-width: 1100px; padding: 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
.muted { color: var(--muted); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; min-width: 44rem; }  /* narrow screens scroll the table */
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
td.num, th.num { text-align: right; white-space: nowrap; }
.bar { background: var(--line); height: .8rem; min-width: 6rem; border-radius: 2px; }
.bar > span { display: block; height: 100%; background: var(--bar); border-radius: 2px; }
.stuck { color: var(--bad); } .done { color: var(--ok); }
ul { margin: 0; padding-left: 1.1rem; }
code { white-space: pre-wrap; word-break: break-word; font-size: .85rem; }
"""


def render(students, plan):
    e = escape
    percentages = [s.percentage for s in students]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{e(plan.title)}: class report</title><style>{STYLE}</style></head><body>",
             f"<h1>{e(plan.title)}: class report</h1>"]
    if students:
        parts.append(f'<p class="muted">{len(students)} students, {len(plan.weights)} exercise(s); '
                     f"mean {statistics.mean(percentages):.1f}%, median {statistics.median(percentages):.1f}%</p>")
    parts += _distribution(percentages)
    for exercise_id in plan.weights:
        parts += _exercise(exercise_id, [s for s in students if exercise_id in s.records])
    parts += _students(students, plan)
    if plan.adjusts:
        parts += _adjustments(students, plan)
    outsiders = [s.shown_name for s in students if s.identity.get("in_roster") is False]
    if outsiders:
        parts.append(f"<h2>Not in the roster</h2><p>Graded all the same: {_names(outsiders)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _distribution(percentages):
    counts = collections.Counter(min(int(p // (100 / BUCKETS)), BUCKETS - 1) for p in percentages)
    most = max(counts.values(), default=1)
    rows = []
    for bucket in range(BUCKETS):
        low, high = bucket * 100 // BUCKETS, (bucket + 1) * 100 // BUCKETS
        label = f"{low}–{high}%" if bucket < BUCKETS - 1 else f"{low}–100%"
        rows.append(f'<tr><td class="num">{label}</td><td>{_bar(counts[bucket] / most)}</td>'
                    f'<td class="num">{counts[bucket]}</td></tr>')
    return ["<h2>Score distribution</h2>", '<div class="scroll"><table>',
            '<tr><th class="num">Score</th><th>Students</th><th class="num">Count</th></tr>', *rows,
            "</table></div>"]


def _exercise(exercise_id, students):
    e = escape
    records = [s.records[exercise_id] for s in students]
    names = [t["name"] for t in records[0]["tests"]] if records else []
    rows = []
    for index, name in enumerate(names):
        outcomes = [(s.shown_name, s.records[exercise_id]["tests"][index]) for s in students]
        passed = sum(test["status"] == "passed" for _, test in outcomes)
        failures = collections.Counter(first_line(test["message"]) or test["status"]
                                       for _, test in outcomes if test["status"] != "passed")
        common = "".join(f"<li><code>{e(message)}</code> <span class=\"muted\">×{count}</span></li>"
                         for message, count in failures.most_common(COMMON_FAILURES))
        stuck = [student for student, test in outcomes if test["status"] != "passed"]
        rate = passed / len(outcomes)
        rows.append(f"<tr><td>{e(name)}</td><td class=\"num\">{points(records[0]['tests'][index]['max_score'])}</td>"
                    f"<td>{_bar(rate)}</td><td class=\"num\">{100 * rate:.0f}% ({passed}/{len(outcomes)})</td>"
                    f"<td><ul>{common}</ul></td><td>{_names(stuck)}</td></tr>")
    missing = sum("missing" in r for r in records)
    note = f'<p class="muted">{missing} student(s) without a gradable file (0 points).</p>' if missing else ""
    return [f"<h2>{e(exercise_id)}</h2>", note, '<div class="scroll"><table>',
            "<tr><th>Test</th><th class=\"num\">Points</th><th>Pass rate</th><th></th>"
            "<th>Most common failures</th><th>Students not passing</th></tr>", *rows, "</table></div>"]


def _students(students, plan):
    e = escape
    header = "".join(f"<th>{e(exercise_id)}</th>" for exercise_id in plan.weights)
    rows = []
    for student in students:
        cells = []
        for exercise_id in plan.weights:
            record = student.records.get(exercise_id)
            cells.append(f"<td>{_where(record)}</td>")
        rows.append(f"<tr><td>{e(student.shown_name)}</td><td class=\"num\">{points(student.total)}/"
                    f"{points(student.max_total)}</td><td class=\"num\">{student.percentage:.1f}%</td>"
                    + "".join(cells) + "</tr>")
    return ["<h2>Students: where each is stuck</h2>", '<div class="scroll"><table>',
            f"<tr><th>Student</th><th class=\"num\">Total</th><th class=\"num\">%</th>{header}</tr>", *rows,
            "</table></div>"]


def _adjustments(students, plan):
    """Every change to the graded points, so that none is silent: overrides, then late penalties."""
    e = escape
    rows = [f"<tr><td>{e(student.name)}</td><td>{e(exercise_id)}</td><td>{e(adjustment['kind'])}</td>"
            f"<td class=\"num\">{adjustment['change']:+g}</td><td>{e(adjustment['note'])}</td></tr>"
            for kind in ("override", "late") for student in students for exercise_id in plan.weights
            for adjustment in student.records.get(exercise_id, {}).get("adjustments", ()) if adjustment["kind"] == kind]
    late = f"due {e(plan.late.due.isoformat())}; " if plan.late else ""
    return ["<h2>Late work and overrides</h2>",
            f'<p class="muted">{late}{len(rows)} change(s) to the graded points (before weights); the totals above '
            "include them.</p>", '<div class="scroll"><table>',
            '<tr><th>Student</th><th>Exercise</th><th>Change</th><th class="num">Points</th><th>Why</th></tr>', *rows,
            "</table></div>"]


def _where(record):
    e = escape
    if record is None:
        return '<span class="muted">no result</span>'
    score = f"{points(record['score'])}/{points(record['max_score'])}"
    if "missing" in record:
        return f'{score} <span class="stuck">{e(record["missing"])}</span>'
    if record["error"]:
        return f'{score} <span class="stuck">could not load: {e(first_line(record["error"], 80))}</span>'
    stuck = next((t for t in record["tests"] if t["status"] != "passed"), None)
    if stuck is None:
        return f'{score} <span class="done">all passed</span>'
    return f'{score} <span class="stuck">stuck at: {e(stuck["name"])} ({e(stuck["status"])})</span>'


def escape(text):
    return html.escape(printable(text))


def _bar(fraction):
    return f'<div class="bar"><span style="width: {100 * fraction:.1f}%"></span></div>'


def _names(names):
    e = escape
    shown = ", ".join(e(name) for name in names[:STUDENTS_LISTED])
    more = f" and {len(names) - STUDENTS_LISTED} more" if len(names) > STUDENTS_LISTED else ""
    return shown + more

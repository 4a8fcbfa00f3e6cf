"""The class report: one self-contained HTML page (inline CSS, no script, no external asset).

Score distribution, then for each exercise every test's pass rate, its most common failure messages and
the students who do not pass it, then each student with where they are stuck (the first test not passed).
Everything from records is escaped (HTML, and control characters spelled out: grader/text.py).
"""

import collections
import html
import re
import statistics

from grader.instructor.outputs.diagnoses import diagnoses
from grader.instructor.outputs.feedback import first_line, points
from grader.text import printable

BUCKETS = 10
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
a { color: var(--bar); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; min-width: 44rem; }  /* narrow screens scroll the table */
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
td.num, th.num { text-align: right; white-space: nowrap; }
.bar { background: var(--line); height: .8rem; min-width: 6rem; border-radius: 2px; }
.bar > span { display: block; height: 100%; background: var(--bar); border-radius: 2px; }
.stuck { color: var(--bad); } .done { color: var(--ok); }
ul { margin: 0; padding-left: 1.1rem; }
code { white-space: pre-wrap; word-break: break-word; font-size: .85rem; }
th.wide { width: 45%; }
td.name { min-width: 9rem; }
.small { font-size: .85rem; }
summary { cursor: pointer; font-size: .85rem; }
"""


def render(students, plan, similarity=None):
    """The page; `similarity`: a similarity file's data (grader/instructor/outputs/similarity_file.py), or None."""
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
    parts += _exercises_chart(students, plan)
    for exercise_id, weight in plan.weights.items():
        parts += _exercise(exercise_id, weight, [s for s in students if exercise_id in s.records])
    parts += _students(students, plan)
    if plan.adjusts:
        parts += _adjustments(students, plan)
    outsiders = [s.shown_name for s in students if s.identity.get("in_roster") is False]
    if outsiders:
        parts.append(f"<h2>Not in the roster</h2><p>Graded all the same: {_names(outsiders)}</p>")
    if similarity is not None:
        parts += similarity_section(similarity, students)
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


def _exercises_chart(students, plan):
    """Per exercise: its weight, the class's mean share of its points, and how many passed every test."""
    rows = []
    for exercise_id, weight in plan.weights.items():
        records = [s.records[exercise_id] for s in students if exercise_id in s.records]
        if not records:
            continue
        mean = statistics.mean(r["score"] / r["max_score"] if r["max_score"] else 0 for r in records)
        passed = sum(r["passed"] for r in records)
        rows.append(f'<tr><td><a href="#{_anchor(exercise_id)}">{escape(exercise_id)}</a></td>'
                    f'<td class="num">×{points(weight)}</td><td>{_bar(mean)}</td>'
                    f'<td class="num">{100 * mean:.0f}%</td><td>{_bar(passed / len(records))}</td>'
                    f'<td class="num">{passed}/{len(records)}</td></tr>')
    return ["<h2>Exercises</h2>", '<div class="scroll"><table>',
            '<tr><th>Exercise</th><th class="num">Weight</th><th>Mean score</th><th class="num">Mean</th>'
            '<th>Passed every test</th><th class="num">Students</th></tr>', *rows, "</table></div>"]


def _exercise(exercise_id, weight, students):
    e = escape
    records = [s.records[exercise_id] for s in students]
    names = [t["name"] for t in records[0]["tests"]] if records else []
    rows, buggy = [], []
    for index, name in enumerate(names):
        outcomes = [(s.shown_name, s.records[exercise_id]["tests"][index]) for s in students]
        passed = sum(test["status"] == "passed" for _, test in outcomes)
        stuck = [student for student, test in outcomes if test["status"] != "passed" and not test.get("exercise_bug")]
        not_graded = sum(bool(test.get("exercise_bug")) for _, test in outcomes)
        rate = passed / len(outcomes)
        worth = points(weight * records[0]["tests"][index]["max_score"])
        rows.append(f'<tr><td>{e(name)}</td><td class="num">{worth}</td><td>{_bar(rate)}</td>'
                    f'<td class="num">{100 * rate:.0f}% ({passed}/{len(outcomes)})</td><td>{_names(stuck)}</td></tr>')
        if not_graded:
            buggy.append(f"<li><strong>{e(name)}</strong>: its own code failed on {not_graded} student(s)' "
                         "submissions</li>")
    missing = sum("missing" in r for r in records)
    note = f'<p class="muted">{missing} student(s) without a gradable file (0 points).</p>' if missing else ""
    if buggy:
        note += ('<p class="stuck">The exercise has a bug: these tests were not graded where their own code failed '
                 "(left out of those students' scores, never counted against them); fix tests.py and grade "
                 f"again.</p><ul>{''.join(buggy)}</ul>")
    weighted = f" (×{points(weight)})" if weight != 1 else ""
    return [f'<h2 id="{_anchor(exercise_id)}">{e(exercise_id)}</h2>', note, '<div class="scroll"><table>',
            f'<tr><th>Test</th><th class="num">Points{weighted}</th><th>Pass rate</th><th class="num"></th>'
            "<th>Students not passing</th></tr>", *rows, "</table></div>", *_diagnoses(exercise_id, students)]


def _students(students, plan):
    """Every student, highest total first (a static page sorts once: the order a class is discussed in)."""
    e = escape
    header = "".join(f"<th>{e(exercise_id)}" + (f" (×{points(weight)})" if weight != 1 else "") + "</th>"
                     for exercise_id, weight in plan.weights.items())
    rows = []
    ranked = sorted(students, key=lambda student: (-student.total, student.shown_name))
    for rank, student in enumerate(ranked, 1):
        cells = "".join(f"<td>{_where(student.records.get(exercise_id), weight)}</td>"
                        for exercise_id, weight in plan.weights.items())
        rows.append(f'<tr><td class="num">{rank}</td><td class="name">{e(student.shown_name)}</td><td class="num">'
                    f"{points(student.total)}/{points(student.max_total)}</td>"
                    f'<td class="num">{student.percentage:.1f}%</td>{cells}</tr>')
    return ["<h2>Students by score, highest first: where each is stuck</h2>",
            '<p class="muted">Weighted points: each exercise\'s points times its weight.</p>',
            '<div class="scroll"><table>',
            f'<tr><th class="num">#</th><th>Student</th><th class="num">Total</th><th class="num">%</th>{header}</tr>',
            *rows, "</table></div>"]


def _diagnoses(exercise_id, students):
    """The exercise's failures grouped by diagnosis (grader/instructor/outputs/diagnoses.py), each in full."""
    e = escape
    rows = []
    for group in diagnoses(exercise_id, students):
        tests = "".join(f"<li>{e(test)}</li>" if test is not None else "<li>(loading the code)</li>"
                        for test in group.tests)
        example = (f'<details><summary class="muted">{e(group.students[0])}\'s message</summary>'
                   f"<code>{e(group.example)}</code></details>" if group.example != group.text else "")
        rows.append(f'<tr><td class="num">{len(group.students)}</td><td><code>{e(group.text)}</code>{example}</td>'
                    f'<td><ul class="small">{tests}</ul></td><td>{_names(group.students)}</td></tr>')
    if not rows:
        return []
    return [f"<h3>{e(exercise_id)}: failures by diagnosis</h3>", '<div class="scroll"><table>',
            '<tr><th class="num">Students</th>'
            '<th class="wide">Diagnosis (numbers as ‹n›, shapes as ‹shape›, dtypes as ‹dtype›)</th>'
            "<th>In the tests</th><th>Who</th></tr>", *rows, "</table></div>"]


def similarity_section(similarity, students):
    """The pairs `python -m grader similar` flagged, per exercise (grades are not changed by them).

    Students whose code is the same but for names, comments and layout (each pair of them 100% both ways) are
    one group, shown once; of the pairs between two groups, only the most similar is shown."""
    shown = {student.name: student.shown_name for student in students}

    def e(name):
        return escape(shown.get(name, name))

    parts = ["<h2>Similar submissions</h2>",
             f'<p class="muted">Pairs of which either shares at least {100 * similarity["threshold"]:.0f}% of its '
             "code fingerprints with the other (names, comments and starter code ignored); similarity.html shows "
             "the code side by side. A reason to look, not a verdict: no grade is changed.</p>"]
    for exercise_id, found in similarity["exercises"].items():
        groups = _same_code(found["pairs"])
        rows = [f'<tr><td colspan="2">{", ".join(map(e, group))}</td><td class="num">100%</td>'
                f'<td class="num">100%</td><td>{len(group)} students: the same code but for names, comments and '
                "layout</td></tr>" for group in sorted(set(groups.values()), key=lambda g: (-len(g), g))]
        between = []  # the pairs of groups shown
        for pair in found["pairs"]:
            first, second = (groups.get(name, (name,)) for name in (pair["first"], pair["second"]))
            if first == second or {first, second} in between:
                continue
            between.append({first, second})
            rows.append(f"<tr><td>{_member(pair['first'], first, e)}</td><td>{_member(pair['second'], second, e)}</td>"
                        f'<td class="num">{100 * pair["similarity"][0]:.0f}%</td>'
                        f'<td class="num">{100 * pair["similarity"][1]:.0f}%</td><td>{_lines(pair, e)}</td></tr>')
        parts.append(f'<h3>{escape(exercise_id)}: {len(found["pairs"])} pair(s) of {found["compared"]} submissions'
                     + (f", {len(rows)} row(s) below" if len(rows) < len(found["pairs"]) else "") + "</h3>")
        if rows:
            parts += ['<div class="scroll"><table>', "<tr><th>Student</th><th>Student</th>"
                      '<th class="num">Of the first</th><th class="num">Of the second</th><th>Lines matched</th></tr>',
                      *rows, "</table></div>"]
    return parts


def _same_code(pairs):
    """{name: its group, a sorted tuple of names} for the submissions that share every fingerprint with another."""
    group_of = {}
    for pair in pairs:
        if min(pair["similarity"]) == 1:
            merged = tuple(sorted({*group_of.get(pair["first"], (pair["first"],)),
                                   *group_of.get(pair["second"], (pair["second"],))}))
            group_of.update(dict.fromkeys(merged, merged))
    return group_of


def _member(name, group, shown):
    others = len(group) - 1
    return shown(name) + (f' <span class="muted">(and {others} more with the same code)</span>' if others else "")


def _lines(pair, shown):
    sides = [", ".join(f"{first}–{last}" if last != first else f"{first}" for first, last in lines)
             for lines in pair["lines"]]
    return "; ".join(f"{shown(name)}: {text}" for name, text in zip((pair["first"], pair["second"]), sides) if text)


def _adjustments(students, plan):
    """Every change to the graded points, so that none is silent: overrides, then late penalties."""
    e = escape
    rows = [f"<tr><td>{e(student.shown_name)}</td><td>{e(exercise_id)}</td><td>{e(adjustment['kind'])}</td>"
            f"<td class=\"num\">{adjustment['change']:+g}</td><td>{e(adjustment['note'])}</td></tr>"
            for kind in ("override", "late") for student in students for exercise_id in plan.weights
            for adjustment in student.records.get(exercise_id, {}).get("adjustments", ()) if adjustment["kind"] == kind]
    late = f"due {e(plan.late.due.isoformat())}; " if plan.late else ""
    return ["<h2>Late work and overrides</h2>",
            f'<p class="muted">{late}{len(rows)} change(s) to the graded points (before weights); the totals above '
            "include them.</p>", '<div class="scroll"><table>',
            '<tr><th>Student</th><th>Exercise</th><th>Change</th><th class="num">Points</th><th>Why</th></tr>', *rows,
            "</table></div>"]


def _where(record, weight):
    e = escape
    if record is None:
        return '<span class="muted">no result</span>'
    score = f"{points(weight * record['score'])}/{points(weight * record['max_score'])}"
    changes = sorted({adjustment["kind"] for adjustment in record.get("adjustments", ())})
    if changes:  # the points shown include them: the "Late work and overrides" section says why
        score += f' <span class="muted">({", ".join(changes)})</span>'
    if "missing" in record:
        return f'{score} <span class="stuck">{e(record["missing"])}</span>'
    if record["error"]:
        return f'{score} <span class="stuck">could not load: {e(first_line(record["error"], 80))}</span>'
    stuck = next((t for t in record["tests"] if t["status"] != "passed" and not t.get("exercise_bug")), None)
    if stuck is None:
        return f'{score} <span class="done">all passed</span>'
    return f'{score} <span class="stuck">stuck at: {e(stuck["name"])} ({e(stuck["status"])})</span>'


def escape(text):
    return html.escape(printable(text))


def _bar(fraction):
    """A bar drawn in CSS; hidden from screen readers, as the same number is written beside it."""
    return f'<div class="bar" aria-hidden="true"><span style="width: {100 * fraction:.1f}%"></span></div>'


def _anchor(exercise_id):
    return "exercise-" + re.sub(r"[^A-Za-z0-9_-]", "_", exercise_id)


def _names(names):
    e = escape
    shown = ", ".join(e(name) for name in names[:STUDENTS_LISTED])
    more = f" and {len(names) - STUDENTS_LISTED} more" if len(names) > STUDENTS_LISTED else ""
    return shown + more

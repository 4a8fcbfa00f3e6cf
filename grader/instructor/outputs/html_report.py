"""The class report: one self-contained HTML page (inline CSS, no script, no external asset).

Who handed in nothing, the score distribution, then for each exercise every test's pass rate over the
gradable hand-ins (those not handed in and those that could not be graded named apart), the failures by
mistake and the students who do not pass, then each student with where they are stuck (the first test not
passed), late work (a row per student) and overrides.
Everything from records is escaped (HTML, and control characters spelled out: grader/text.py).
"""

import collections
import html
import re
import statistics

from grader.instructor.classfolder.handin import handed_in_nothing
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
    nothing = [s.shown_name for s in students if s.records and all(map(handed_in_nothing, s.records.values()))]
    if nothing:
        parts.append(f'<p id="nothing">Handed in nothing ({len(nothing)}, 0 points): {_names(nothing, None)}</p>')
    parts += _distribution(percentages)
    parts += _exercises_chart(students, plan)
    for exercise_id, weight in plan.weights.items():
        parts += _exercise(exercise_id, weight, [s for s in students if exercise_id in s.records])
    parts += _students(students, plan)
    if plan.late:
        parts += _late_work(students, plan)
    if plan.overrides:
        parts += _overrides(students, plan)
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
    """Per exercise: its weight, the mean share of its points and how many passed every test, over the gradable
    hand-ins; how many handed in nothing and how many files could not be graded, apart."""
    rows = []
    for exercise_id, weight in plan.weights.items():
        records = [s.records[exercise_id] for s in students if exercise_id in s.records]
        if not records:
            continue
        gradable = [r for r in records if "missing" not in r]
        nothing = sum(map(handed_in_nothing, records))
        if gradable:
            mean = statistics.mean(r["score"] / r["max_score"] if r["max_score"] else 0 for r in gradable)
            passed = sum(r["passed"] for r in gradable)
            rates = (f'<td>{_bar(mean)}</td><td class="num">{100 * mean:.0f}%</td>'
                     f'<td>{_bar(passed / len(gradable))}</td><td class="num">{passed}/{len(gradable)}</td>')
        else:
            rates = '<td></td><td class="num">–</td><td></td><td class="num">0/0</td>'
        rows.append(f'<tr><td><a href="#{_anchor(exercise_id)}">{escape(exercise_id)}</a></td>'
                    f'<td class="num">×{points(weight)}</td>{rates}<td class="num">{nothing}</td>'
                    f'<td class="num">{len(records) - len(gradable) - nothing}</td></tr>')
    return ["<h2>Exercises</h2>",
            '<p class="muted">Over the gradable hand-ins; those not handed in and the files that could not be '
            "graded (0 points each) are counted apart.</p>", '<div class="scroll"><table>',
            '<tr><th>Exercise</th><th class="num">Weight</th><th>Mean score</th><th class="num">Mean</th>'
            '<th>Passed every test</th><th class="num">Passed</th><th class="num">Not handed in</th>'
            '<th class="num">Not gradable</th></tr>', *rows, "</table></div>"]


def _exercise(exercise_id, weight, students):
    e = escape
    records = [s.records[exercise_id] for s in students]
    gradable = [s for s in students if "missing" not in s.records[exercise_id]]
    names = [t["name"] for t in records[0]["tests"]] if records else []
    rows, buggy = [], []
    for index, name in enumerate(names):
        outcomes = [(s.shown_name, s.records[exercise_id]["tests"][index]) for s in gradable]
        passed = sum(test["status"] == "passed" for _, test in outcomes)
        stuck = [student for student, test in outcomes if test["status"] != "passed" and not test.get("exercise_bug")]
        not_graded = sum(bool(test.get("exercise_bug")) for _, test in outcomes)
        rate = passed / len(outcomes) if outcomes else 0
        shown = f"{100 * rate:.0f}% ({passed}/{len(outcomes)})" if outcomes else "–"
        worth = points(weight * records[0]["tests"][index]["max_score"])
        rows.append(f'<tr><td>{e(name)}</td><td class="num">{worth}</td><td>{_bar(rate)}</td>'
                    f'<td class="num">{shown}</td><td>{_names(stuck)}</td></tr>')
        if not_graded:
            buggy.append(f"<li><strong>{e(name)}</strong>: its own code failed on {not_graded} student(s)' "
                         "submissions</li>")
    nothing = [s.shown_name for s in students if handed_in_nothing(s.records[exercise_id])]
    refused = [f"{e(s.shown_name)} ({e(s.records[exercise_id]['missing'])})" for s in students
               if "missing" in s.records[exercise_id] and not handed_in_nothing(s.records[exercise_id])]
    notes = [f'<p class="muted">Pass rates over the {len(gradable)} gradable hand-in(s).</p>']
    if nothing:
        notes.append(f"<p>Not handed in ({len(nothing)}, 0 points): {_names(nothing, None)}</p>")
    if refused:
        notes.append(f"<p>Handed in but not gradable ({len(refused)}, 0 points): {'; '.join(refused)}</p>")
    if buggy:
        notes.append('<p class="stuck">The exercise has a bug: these tests were not graded where their own code '
                     "failed (left out of those students' scores, never counted against them); fix tests.py and "
                     f"grade again.</p><ul>{''.join(buggy)}</ul>")
    weighted = f" (×{points(weight)})" if weight != 1 else ""
    return [f'<h2 id="{_anchor(exercise_id)}">{e(exercise_id)}</h2>', *notes, '<div class="scroll"><table>',
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
    """The exercise's failures by mistake (grader/instructor/outputs/diagnoses.py), each student once per
    mistake whatever the tests it failed, each in full."""
    e = escape
    rows = []
    for group in diagnoses(exercise_id, students):
        tests = "".join(f"<li>{e(test)}</li>" if test is not None else "<li>(loading the code)</li>"
                        for test in group.tests)
        text = f"The test named a mistake: {e(group.text)}" if group.hint else e(group.text)
        example = (f'<details><summary class="muted">{e(group.students[0])}\'s message</summary>'
                   f"<code>{e(group.example)}</code></details>" if group.example != group.text else "")
        rows.append(f'<tr><td class="num">{len(group.students)}</td><td><code>{text}</code>{example}</td>'
                    f'<td><ul class="small">{tests}</ul></td><td>{_names(group.students)}</td></tr>')
    if not rows:
        return []
    return [f"<h3>{e(exercise_id)}: failures by mistake</h3>", '<div class="scroll"><table>',
            '<tr><th class="num">Students</th>'
            '<th class="wide">Mistake: the one a test named, else the message (numbers as ‹n›, shapes as '
            "‹shape›, dtypes as ‹dtype›)</th><th>In the tests</th><th>Who</th></tr>", *rows, "</table></div>"]


def similarity_section(similarity, students):
    """The groups and pairs `python -m grader similar` flagged, per exercise (grades are not changed by them):
    a group of students whose code is the same but for names, comments and layout is one row, and stands for
    its members in the pairs."""
    shown = {student.name: student.shown_name for student in students}

    def e(name):
        return escape(shown.get(name, name))

    parts = ["<h2>Similar submissions</h2>",
             f'<p class="muted">Students with the same code but for names, comments and layout, as groups; then '
             f'pairs of which either shares at least {100 * similarity["threshold"]:.0f}% of its code '
             "fingerprints with the other (the starter code ignored); similarity.html shows the code side by side. "
             "A reason to look, not a verdict: no grade is changed.</p>"]
    for exercise_id, found in similarity["exercises"].items():
        groups = {group[0]: group for group in found["groups"]}
        rows = [f'<tr><td colspan="2">{", ".join(map(e, group))}</td><td class="num">100%</td>'
                f'<td class="num">100%</td><td>{len(group)} students: the same code but for names, comments and '
                "layout</td></tr>" for group in found["groups"]]
        rows += [f"<tr><td>{_member(pair['first'], groups, e)}</td><td>{_member(pair['second'], groups, e)}</td>"
                 f'<td class="num">{100 * pair["similarity"][0]:.0f}%</td>'
                 f'<td class="num">{100 * pair["similarity"][1]:.0f}%</td><td>{_lines(pair, e)}</td></tr>'
                 for pair in found["pairs"]]
        parts.append(f'<h3>{escape(exercise_id)}: {len(found["groups"])} group(s) of the same code and '
                     f'{len(found["pairs"])} pair(s) of {found["compared"]} submissions</h3>')
        if rows:
            parts += ['<div class="scroll"><table>', "<tr><th>Student</th><th>Student</th>"
                      '<th class="num">Of the first</th><th class="num">Of the second</th><th>Lines matched</th></tr>',
                      *rows, "</table></div>"]
    return parts


def _member(name, groups, shown):
    others = len(groups.get(name, ())) - 1
    return shown(name) + (f' <span class="muted">(and {others} more with the same code)</span>' if others > 0 else "")


def _lines(pair, shown):
    sides = [", ".join(f"{first}–{last}" if last != first else f"{first}" for first, last in lines)
             for lines in pair["lines"]]
    return "; ".join(f"{shown(name)}: {text}" for name, text in zip((pair["first"], pair["second"]), sides) if text)


def _late_work(students, plan):
    """One row per student handed in late: how late, and the weighted points it took, in all and per exercise."""
    e = escape
    rows = []
    for student in students:
        late = {exercise_id: [a["late"] for a in record.get("adjustments", ()) if a["kind"] == "late"]
                for exercise_id, record in student.records.items()}
        if not any(late.values()):
            continue
        when = "; ".join(dict.fromkeys(note for notes in late.values() for note in notes))
        each = ", ".join(f"{e(exercise_id)} {_signed(student.changed(plan, 'late', exercise_id))}"
                         for exercise_id in plan.weights if late.get(exercise_id))
        rows.append(f'<tr><td class="name">{e(student.shown_name)}</td><td>{e(when)}</td>'
                    f'<td class="num">{_signed(student.changed(plan, "late"))}</td><td>{each}</td></tr>')
    return _section("Late work", f"Due {e(plan.late.due.isoformat())}; {len(rows)} student(s) late. Points taken "
                    "are weighted; the totals above include them.",
                    '<tr><th>Student</th><th>How late</th><th class="num">Points</th><th>Per exercise</th></tr>', rows)


def _overrides(students, plan):
    """Every override of the graded points, so that none is silent."""
    e = escape
    rows = [f"<tr><td>{e(student.shown_name)}</td><td>{e(exercise_id)}</td>"
            f"<td class=\"num\">{_signed(adjustment['change'])}</td><td>{e(adjustment['note'])}</td></tr>"
            for student in students for exercise_id in plan.weights
            for adjustment in student.records.get(exercise_id, {}).get("adjustments", ())
            if adjustment["kind"] == "override"]
    return _section("Overrides", f"{len(rows)} change(s) to the graded points (before weights); the totals above "
                    "include them.",
                    '<tr><th>Student</th><th>Exercise</th><th class="num">Points</th><th>Why</th></tr>', rows)


def _section(heading, note, header, rows):
    """A heading, a note under it, and a table (which narrow screens scroll)."""
    return [f"<h2>{heading}</h2>", f'<p class="muted">{note}</p>', '<div class="scroll"><table>', header, *rows,
            "</table></div>"]


def _where(record, weight):
    e = escape
    if record is None:
        return '<span class="muted">no result</span>'
    score = f"{points(weight * record['score'])}/{points(weight * record['max_score'])}"
    changes = sorted({adjustment["kind"] for adjustment in record.get("adjustments", ())})
    if changes:  # the points shown include them: the "Late work" and "Overrides" sections say why
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


def _signed(points):
    return f"{points:+g}" if points else "0"


def _bar(fraction):
    """A bar drawn in CSS; hidden from screen readers, as the same number is written beside it."""
    return f'<div class="bar" aria-hidden="true"><span style="width: {100 * fraction:.1f}%"></span></div>'


def _anchor(exercise_id):
    return "exercise-" + re.sub(r"[^A-Za-z0-9_-]", "_", exercise_id)


def _names(names, limit=STUDENTS_LISTED):
    """The names, escaped; after `limit` of them (None: no limit), how many more."""
    e = escape
    shown = ", ".join(e(name) for name in names[:limit])
    more = f" and {len(names) - limit} more" if limit is not None and len(names) > limit else ""
    return shown + more

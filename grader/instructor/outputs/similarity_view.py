"""similarity.html: each group of the same code, two of its files side by side, then each flagged pair's two
files side by side, the matched regions marked.

Self-contained like report.html (inline CSS, no script); the code is escaped, control characters
spelled out (grader/text.py).
"""

from grader.instructor.outputs.html_report import STYLE, escape
from grader.instructor.similarity import LINE_END, Pair, standing_for

PAIRS_SHOWN = 100  # per exercise, groups and pairs: the most similar; similarity.json lists them all

VIEW_STYLE = """
.pair { margin: 1.5rem 0; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
@media (max-width: 48rem) { .sides { grid-template-columns: 1fr; } }
.side { min-width: 0; }
pre { overflow-x: auto; border: 1px solid var(--line); padding: .5rem; margin: .25rem 0; font-size: .8rem; }
mark { background: #ffe08a; color: #1d232a; }
@media (prefers-color-scheme: dark) { mark { background: #6b5512; color: #fff6d8; } }
"""


def render(results, threshold, title):
    """`results`: {exercise id: (number compared, [group], [Pair]), as grader.instructor.similarity.similar_code
    gives them}."""
    e = escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{e(title)}: similar submissions</title><style>{STYLE}{VIEW_STYLE}</style></head><body>",
             f"<h1>{e(title)}: similar submissions</h1>",
             f'<p class="muted">Students with the same code but for names, comments and layout, as groups; then '
             f"pairs sharing at least {100 * threshold:.0f}% of one side's code fingerprints (the starter code "
             "never counts), a group standing for its members. Marked: the regions found in both. A similarity "
             "is a reason to look, not a verdict; grades are unchanged.</p>"]
    for exercise_id, (compared, groups, pairs) in results.items():
        shown = [*groups, *pairs][:PAIRS_SHOWN]  # each made into a view below: the others cost nothing
        more = (f" The first {PAIRS_SHOWN} are shown; similarity.json lists them all."
                if len(groups) + len(pairs) > PAIRS_SHOWN else "")
        parts.append(f'<h2 id="{e(exercise_id)}">{e(exercise_id)}</h2>')
        parts.append(f'<p class="muted">{compared} submission(s) compared: {len(groups)} group(s) of the same code, '
                     f"{len(pairs)} pair(s) flagged.{more}</p>")
        parts += [_pair(found, groups) if isinstance(found, Pair) else _group(found) for found in shown]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _group(group):
    """The group's names, and its first two files side by side."""
    names = ", ".join(escape(doc.name) for doc in group)
    return _sides(f"{len(group)} students with the same code: {names}", Pair(group[0], group[1], (1.0, 1.0)))


def _pair(pair, groups):
    named = (escape(standing_for(doc, groups)) for doc in (pair.first, pair.second))
    return _sides(f"{' and '.join(named)}: {100 * pair.highest:.0f}%", pair)


def _sides(heading, pair):
    e = escape
    sides = "".join(f'<div class="side"><strong>{e(doc.name)}</strong> <span class="muted">'
                    f"({100 * share:.0f}% of its fingerprints found in the other)</span>"
                    f"<pre><code>{_marked(doc.source, regions)}</code></pre></div>"
                    for doc, share, regions in zip((pair.first, pair.second), pair.similarity, pair.regions))
    return f'<section class="pair"><h3>{heading}</h3><div class="sides">{sides}</div></section>'


def _marked(source, regions):
    """`source` escaped, each region in <mark>; "\r\n" and a lone "\r" shown as line ends, as Python reads
    them (a region starts and ends at a token, never between "\r" and "\n")."""
    parts, at = [], 0
    for start, end in regions:
        parts += [_code(source[at:start]), f"<mark>{_code(source[start:end])}</mark>"]
        at = end
    parts.append(_code(source[at:]))
    return "".join(parts)


def _code(text):
    return escape(LINE_END.sub("\n", text))

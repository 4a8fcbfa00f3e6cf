"""similarity.html: each flagged pair's two files side by side, the matched regions marked.

Self-contained like report.html (inline CSS, no script); the code is escaped, control characters
spelled out (grader/text.py).
"""

from grader.instructor.outputs.html_report import STYLE, escape

PAIRS_SHOWN = 100  # per exercise: a page of every pair of a class that all handed in the same is no help

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
    """`results`: {exercise id: (number compared, [grader.instructor.similarity.Pair])}."""
    e = escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{e(title)}: similar submissions</title><style>{STYLE}{VIEW_STYLE}</style></head><body>",
             f"<h1>{e(title)}: similar submissions</h1>",
             f'<p class="muted">Pairs sharing at least {100 * threshold:.0f}% of one side\'s code fingerprints '
             "(variable names, comments and layout ignored; the starter code never counts). Marked: the "
             "regions found in both. A similarity is a reason to look, not a verdict; grades are unchanged.</p>"]
    for exercise_id, (compared, pairs) in results.items():
        more = (f" The {PAIRS_SHOWN} most similar are shown; similarity.json lists them all."
                if len(pairs) > PAIRS_SHOWN else "")
        parts.append(f'<h2 id="{e(exercise_id)}">{e(exercise_id)}</h2>')
        parts.append(f'<p class="muted">{compared} submission(s) compared, {len(pairs)} pair(s) flagged.{more}</p>')
        parts += [_pair(pair) for pair in pairs[:PAIRS_SHOWN]]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _pair(pair):
    e = escape
    first, second = pair.similarity
    sides = "".join(f'<div class="side"><strong>{e(doc.name)}</strong> <span class="muted">'
                    f"({100 * share:.0f}% of its fingerprints found in the other)</span>"
                    f"<pre><code>{_marked(doc.source, regions)}</code></pre></div>"
                    for doc, share, regions in zip((pair.first, pair.second), (first, second), pair.regions))
    return (f'<section class="pair"><h3>{e(pair.first.name)} and {e(pair.second.name)}: '
            f"{100 * pair.highest:.0f}%</h3><div class=\"sides\">{sides}</div></section>")


def _marked(source, regions):
    """`source` escaped, each region in <mark>; Windows line ends shown as line ends (a region starts and
    ends at a token, never between "\r" and "\n")."""
    parts, at = [], 0
    for start, end in regions:
        parts += [_code(source[at:start]), f"<mark>{_code(source[start:end])}</mark>"]
        at = end
    parts.append(_code(source[at:]))
    return "".join(parts)


def _code(text):
    return escape(text.replace("\r\n", "\n"))

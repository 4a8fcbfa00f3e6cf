r"""Adapt KaTeX's MathML to MathML Core, the part of MathML that Chromium renders.

Two things KaTeX relies on are not in MathML Core, and Chromium ignores them:
- `mathvariant` other than "normal" (\mathbb, \mathbf, \mathcal, ...): the
  letters become the Unicode mathematical alphanumerics (R -> ℝ), which every
  browser shows, and the attribute goes when every character was replaced;
- `columnalign`, `columnspacing` and `rowspacing` on tables (aligned, cases,
  matrices): each cell gets the equivalent CSS instead.
And one thing TeX does that MathML Core's operator spacing does not: a thin
space between an operator name (\sin, \log, \max_j) and a variable or a
number next to it, so that `a \sin b` does not show as "asinb".
"""

import functools
import re
import unicodedata
import xml.etree.ElementTree as ET

MATHML = "http://www.w3.org/1998/Math/MathML"
ET.register_namespace("", MATHML)
TOKENS = {f"{{{MATHML}}}{tag}" for tag in ("mi", "mn", "mo", "mtext")}
SCRIPTS = {f"{{{MATHML}}}{tag}" for tag in ("msub", "msup", "msubsup", "munder", "mover", "munderover")}
ROW, OPERATOR = f"{{{MATHML}}}mrow", f"{{{MATHML}}}mo"
SPACED = {OPERATOR, f"{{{MATHML}}}mspace"}  # operators bring their own spacing
ROWS = {f"{{{MATHML}}}{tag}" for tag in ("mrow", "mstyle", "mtd")}  # elements laying their children in a row
FUNCTION_APPLICATION = "\u2061"  # the invisible operator KaTeX puts after an operator name
THIN_SPACE = "0.1667em"
# mathvariant -> Unicode name prefixes to try, in order; the letters Unicode had encoded before the
# mathematical alphanumerics (ℝ, ℬ, ℭ, ...) carry the shorter name.
NAME_PREFIXES = {
    "bold": ["MATHEMATICAL BOLD"],
    "italic": ["MATHEMATICAL ITALIC"],
    "bold-italic": ["MATHEMATICAL BOLD ITALIC"],
    "double-struck": ["MATHEMATICAL DOUBLE-STRUCK", "DOUBLE-STRUCK"],
    "script": ["MATHEMATICAL SCRIPT", "SCRIPT"],
    "bold-script": ["MATHEMATICAL BOLD SCRIPT"],
    "fraktur": ["MATHEMATICAL FRAKTUR", "BLACK-LETTER"],
    "bold-fraktur": ["MATHEMATICAL BOLD FRAKTUR"],
    "sans-serif": ["MATHEMATICAL SANS-SERIF"],
    "bold-sans-serif": ["MATHEMATICAL SANS-SERIF BOLD"],
    "sans-serif-italic": ["MATHEMATICAL SANS-SERIF ITALIC"],
    "sans-serif-bold-italic": ["MATHEMATICAL SANS-SERIF BOLD ITALIC"],
    "monospace": ["MATHEMATICAL MONOSPACE"],
}
LENGTH = re.compile(r"(-?[\d.]+)([a-z%]*)")


def adapt(mathml):
    """`mathml` (one <math> element) with the adaptations above."""
    root = ET.fromstring(mathml)
    parents = {child: parent for parent in root.iter() for child in parent}
    for element in list(root.iter()):
        if element.tag in TOKENS and element.get("mathvariant", "normal") in NAME_PREFIXES:
            _replace_variant(element)
        elif element.tag == f"{{{MATHML}}}mtable":
            _style_cells(element)
        if element.tag == OPERATOR and element.text == FUNCTION_APPLICATION:
            _space_around_operator_name(element, parents)
    return ET.tostring(root, encoding="unicode", short_empty_elements=False)


def _replace_variant(element):
    variant = element.attrib["mathvariant"]
    text = element.text or ""
    replaced = "".join(_styled(char, variant) or char for char in text)
    element.text = replaced
    if all(char.isspace() or _styled(char, variant) for char in text):
        del element.attrib["mathvariant"]


@functools.cache
def _styled(char, variant):
    """The mathematical alphanumeric for `char` in `variant` ('R', 'double-struck' -> 'ℝ'), or None."""
    try:
        # 'LATIN CAPITAL LETTER R' -> 'CAPITAL R', 'GREEK SMALL LETTER ALPHA' -> 'SMALL ALPHA'
        name = re.sub(r"^(LATIN|GREEK) |LETTER ", "", unicodedata.name(char))
    except ValueError:
        return None
    for prefix in NAME_PREFIXES[variant]:
        try:
            return unicodedata.lookup(f"{prefix} {name}")
        except KeyError:
            pass
    return None


def _space_around_operator_name(application, parents):
    """Thin spaces around the operator name that `application` ends, where a variable or a number touches it."""
    siblings = list(parents[application])
    name = siblings[siblings.index(application) - 1]
    start = _outermost(name, parents, lambda parent, element: parent[0] is element)
    end = _outermost(application, parents, lambda parent, element: parent[-1] is element)
    for element, step, touching in ((end, 1, _first_token), (start, -1, _last_token)):
        row = parents.get(element)
        if row is None or row.tag not in ROWS:
            continue
        index = list(row).index(element)
        if 0 <= index + step < len(row) and touching(row[index + step]).tag not in SPACED:
            row.insert(index + max(step, 0), ET.Element(f"{{{MATHML}}}mspace", width=THIN_SPACE))


def _outermost(element, parents, at_edge):
    """Climb from `element` while it is at the edge of a row, or the base of scripts (max_j)."""
    while element in parents:
        parent = parents[element]
        if not ((parent.tag == ROW and at_edge(parent, element)) or (parent.tag in SCRIPTS and parent[0] is element)):
            break
        element = parent
    return element


def _first_token(element):
    while len(element):
        element = element[0]
    return element


def _last_token(element):
    while len(element):
        element = element[-1]
    return element


def _style_cells(table):
    aligns = table.attrib.pop("columnalign", "").split()
    column_gaps = table.attrib.pop("columnspacing", "").split()
    row_gaps = table.attrib.pop("rowspacing", "").split()
    rows = [row for row in table if row.tag == f"{{{MATHML}}}mtr"]
    for row_index, row in enumerate(rows):
        cells = [cell for cell in row if cell.tag == f"{{{MATHML}}}mtd"]
        for column, cell in enumerate(cells):
            style = []
            if aligns:
                # Chromium lays a cell's content out as a block, which only -webkit-right/-center move.
                align = _nth(aligns, column)
                style.append(f"text-align: {align}; text-align: -webkit-{align}")
            if column_gaps:
                style.append(_padding("left", "right", column_gaps, column, len(cells)))
            if row_gaps:
                style.append(_padding("top", "bottom", row_gaps, row_index, len(rows)))
            if style:
                cell.set("style", "; ".join(style))


def _nth(values, index):
    """MathML's lists repeat their last value."""
    return values[min(index, len(values) - 1)]


def _padding(before, after, gaps, index, count):
    """Half of the gap on each side of a cell, none on the table's outer edges."""
    first = _half(_nth(gaps, index - 1)) if index > 0 else "0"
    last = _half(_nth(gaps, index)) if index < count - 1 else "0"
    return f"padding-{before}: {first}; padding-{after}: {last}"


def _half(length):
    match = LENGTH.fullmatch(length)
    return f"{float(match[1]) / 2:g}{match[2]}" if match else "0"

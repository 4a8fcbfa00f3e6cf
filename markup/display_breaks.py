"""Where a display formula may break across lines on a narrow screen.

MathML has no automatic line breaking in browsers, so a long display formula would overflow a
phone's column. The formula is cut, at its top level (outside braces, brackets, `\\left ... \\right`
and environments), into statements at each `\\quad` / `\\qquad` that separates two of them, and each
statement before its relations (`=`, `\\le`, ...). The page lays everything out on one line and
wraps it where the column is too narrow, a whole statement first, then a statement at its
relations (style.css: .math-pieces). A formula with no such place stays whole.
"""

import re

RELATIONS = {"=", "<", ">", r"\le", r"\leq", r"\ge", r"\geq", r"\ne", r"\neq", r"\approx", r"\equiv",
             r"\sim", r"\propto", r"\to", r"\mapsto", r"\in", r"\subseteq"}
SEPARATORS = {r"\quad", r"\qquad"}
OPENERS = {"{", r"\left", r"\begin", "(", "[", r"\{", r"\langle"}
CLOSERS = {"}", r"\right", r"\end", ")", "]", r"\}", r"\rangle"}
SPACING = {r"\,", r"\;", r"\:", r"\!", r"\ ", "~"}
# A command (letters, or one other character), a group opener/closer, or any other single character.
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}]|[^\\{}]", re.DOTALL)


# Commands that draw nothing of their own (layout, fonts, spacing), and other markup: not counted.
_SILENT_COMMANDS = re.compile(r"\\(begin|end)\{\w+\*?\}|\\(mathrm|text|texttt|mathbf|mathcal|operatorname|frac"
                              r"|dfrac|tfrac|sqrt|left|right|[bB]igg?[lr]?|textstyle|displaystyle|overline|bar|hat)"
                              r"(?![A-Za-z])|\\[,;:! ]|\\\\")
_MARKUP = re.compile(r"[{}&_^\s]")


def visible_length(latex):
    """Roughly how many symbols `latex` draws: a command such as `\\alpha` counts as one, `\\qquad` as two."""
    spaced = re.sub(r"\\qquad(?![A-Za-z])", "QQ", _SILENT_COMMANDS.sub("", latex))
    return len(_MARKUP.sub("", re.sub(r"\\[A-Za-z]+", "x", spaced)))


def display_statements(latex):
    """[[piece, ...], ...]: the statements of `latex`, each cut before its relations; a piece starting
    with a relation continues the one before it. [[latex]] when the formula cannot break."""
    statements, pieces, current = [], [], []
    depth = 0  # braces, brackets, \left ... \right and \begin ... \end together
    for match in _TOKEN.finditer(latex):
        token = match.group()
        if token in OPENERS:
            depth += 1
        elif token in CLOSERS:
            depth -= 1
        elif depth == 0 and token in SEPARATORS:
            statements.append(_close(pieces, current))
            pieces, current = [], []
            continue
        elif depth == 0 and token in RELATIONS and _has_content(current) and not _is_condition(pieces, current):
            pieces = _close(pieces, current)
            current = []
        current.append(token)
    statements.append(_close(pieces, current))
    statements = [statement for statement in statements if statement]
    if depth != 0 or any(not _has_content([piece]) for statement in statements for piece in statement):
        return [[latex]]
    return statements


def _close(pieces, tokens):
    text = "".join(tokens).strip()
    return pieces + [text] if _has_content(tokens) else pieces


def _is_condition(pieces, tokens):
    """A statement like `\\text{for } t = 0, ...` reads as one clause: its relation does not start a line."""
    return not pieces and next((t for t in tokens if t.strip()), None) == r"\text"


def _has_content(tokens):
    return any(t.strip() and t.strip() not in SPACING for t in tokens)

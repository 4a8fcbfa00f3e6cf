"""What a Markdown text shows by mistake or points to: a `$` left as text, a doubled backslash before a command in a
formula, an inline formula wider than the statement column, and the addresses of its images and links.

Read from the tokens the renderer works on (markup.markdown), so code spans, code blocks, formulas and
escaped dollars (`\\$`) are told apart exactly as on the page.
"""

import dataclasses
import re

from markup.markdown import inline_lines, parse_for_checks

# How wide an inline formula may be, in em of the text (16 px): the statement column is 37 em (596 px) at 1280 px;
# the estimate below errs by up to about 1.5 em either way, and the browser test measures the real widths.
MAX_INLINE_EM = 37.5
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|.", re.DOTALL)
# Estimated widths, in em, of what a formula draws (fitted to Chromium's layout of the statements' formulas,
# within about 1.5 em): a relation or an operator with its spaces, a digit, punctuation, a bracket, a letter.
_DRAWS_NOTHING = {r"\mathrm", r"\text", r"\mathbf", r"\boldsymbol", r"\mathbb", r"\mathcal", r"\operatorname",
                  r"\left", r"\right", r"\big", r"\Big", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr", r"\frac",
                  r"\dfrac", r"\tfrac", r"\sqrt", r"\hat", r"\bar", r"\tilde", r"\overline", r"\textstyle",
                  r"\displaystyle"}
_OPERATORS = {"+", "-", "=", "<", ">", r"\cdot", r"\approx", r"\times", r"\le", r"\leq", r"\ge", r"\geq",
              r"\ne", r"\neq", r"\to", r"\mapsto", r"\in", r"\odot", r"\pm", r"\sim", r"\propto", r"\equiv"}
_NAMED = {"sin", "cos", "tan", "tanh", "exp", "log", "ln", "max", "min", "arg", "argmax", "argmin"}
_SPACES = {r"\,": 0.17, r"\;": 0.28, r"\:": 0.22, r"\ ": 0.33, "~": 0.33, r"\quad": 1, r"\qquad": 2, r"\!": -0.17}

HTML_ADDRESS = re.compile(r"""<(img|a)\b[^>]*?\b(src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class Reference:
    line: int | None
    kind: str  # "image" or "link"
    address: str


def stray_dollars(text):
    """The lines holding a `$` that starts no formula and is not escaped: the page shows it as a dollar sign."""
    lines = []
    for token in parse_for_checks(text):
        for child, line in inline_lines(token):
            if child.type == "text" and "$" in child.content:
                lines.append(line + child.content[:child.content.index("$")].count("\n") if line else None)
    return lines


def doubled_backslashes(text):
    """(line, formula) of each formula holding a doubled backslash before a command (`\\\\mathrm`): a line
    break followed by letters, which the page shows as italic letters (a backslash doubled twice, as in a
    TOML literal string or a Python raw string that did not need it)."""
    found = []
    for token, line in _formulas(text):
        if re.search(r"(?<!\\)(?:\\\\)+[A-Za-z]", token.content):
            found.append((line, token.content.strip()))
    return found


def inline_width_em(latex):
    """Roughly how wide the inline formula `latex` is drawn, in em of the text around it."""
    width = 0.0
    for token in _TOKEN.findall(latex):
        if token in _DRAWS_NOTHING or token in "{}^_&" or token.isspace():
            continue
        if token in _SPACES:
            width += _SPACES[token]
        elif token in _OPERATORS:
            width += 1.3
        elif token[1:] in _NAMED:
            width += 0.64 * len(token[1:])
        elif token in ".,;:":
            width += 0.55
        elif token in "()[]|/":
            width += 0.53
        elif token.isdigit():
            width += 0.63
        else:
            width += 0.64
    return width


def wide_inline_formulas(text):
    """(line, formula, width in em) of each inline formula wider than MAX_INLINE_EM."""
    return [(line, token.content.strip(), round(width, 1)) for token, line in _formulas(text)
            if token.type == "math_inline" and (width := inline_width_em(token.content)) > MAX_INLINE_EM]


def _formulas(text):
    """(math token, line) for every formula of `text`, inline and display."""
    for token in parse_for_checks(text):
        if token.type == "math_block":
            yield token, token.map[0] + 1
        for child, line in inline_lines(token):
            if child.type in ("math_inline", "math_inline_double"):
                yield child, line


def references(text):
    """Every image and link of `text` (Markdown or HTML), in order."""
    found = []
    for token in parse_for_checks(text):
        if token.type == "html_block":
            found += _html_references(token.content, token.map[0] + 1)
        for child, line in inline_lines(token):
            if child.type == "image":
                found.append(Reference(line, "image", child.attrs.get("src", "")))
            elif child.type == "link_open":
                found.append(Reference(line, "link", child.attrs.get("href", "")))
            elif child.type == "html_inline":
                found += _html_references(child.content, line)
    return found


def _html_references(html, line):
    return [Reference(line + html[:match.start()].count("\n") if line else None,
                      "image" if match.group(1).lower() == "img" else "link",
                      next(group for group in match.groups()[2:] if group is not None))
            for match in HTML_ADDRESS.finditer(html)]

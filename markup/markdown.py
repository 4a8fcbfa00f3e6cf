"""Statement Markdown to HTML: CommonMark + tables, $...$ / $$...$$ math as MathML (markup.katex),
```python code blocks highlighted by Pygments (classes "hl-*", coloured by site/css/style.css).

Math is recognised by the dollarmath plugin before any other inline rule sees
it, so `_`, `*` and `\\` inside formulas stay LaTeX; `$` inside code spans and
code blocks stays text, and `\\$` is a literal dollar.
"""

import functools
import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from mdit_py_plugins.dollarmath import dollarmath_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from markup.display_breaks import display_statements, visible_length
from markup.katex import Formula, render_formulas

BREAKABLE_SYMBOLS = 22  # display formulas drawing more symbols than this may break into pieces on a narrow screen
MAX_REMEMBERED = 1000  # rendered texts kept; a long `build.py serve` session starts afresh past it


class MarkdownError(Exception):
    """A formula that cannot be rendered: the message names it and the construct at fault, `line` its line."""

    def __init__(self, message, line=None):
        self.message, self.line = message, line
        super().__init__(f"line {line}: {message}" if line else message)


def render_markdown(text):
    """HTML for Markdown `text`; MarkdownError (with the line) for a formula that cannot be rendered."""
    if text not in _rendered:
        prerender([text])
    html, error = _rendered[text]
    if error:
        raise error
    return html


def prerender(texts):
    """Render many Markdown texts with one KaTeX run and keep the results for render_markdown."""
    if len(_rendered) > MAX_REMEMBERED:
        _rendered.clear()
    parsed = {text: _MD.parse(text, {}) for text in texts if text not in _rendered}
    formulas = {text: list(_formulas(tokens)) for text, tokens in parsed.items()}
    wanted = [formula for found in formulas.values() for _, _, formula in found]
    pieces = [Formula(piece, True) for found in formulas.values() for token, _, _ in found
              for statement in token.meta.get("statements", ()) for piece in statement]
    rendered = render_formulas(wanted + pieces)
    for text, tokens in parsed.items():
        try:
            _set_math(formulas[text], rendered)
            _rendered[text] = _MD.renderer.render(tokens, _MD.options, {}), None
        except MarkdownError as error:
            _rendered[text] = None, error


def _set_math(formulas, rendered):
    for token, line, formula in formulas:
        result = rendered[formula]
        if result.problem:
            raise MarkdownError(_problem(token, formula, result), _line_of(token, line, result.position))
        token.meta["mathml"] = result.mathml
        if token.type in ("math_block", "math_inline_double"):
            _set_pieces(token, rendered)
        if token.type == "math_inline":
            _glue_neighbours(token)


def _set_pieces(token, rendered):
    """The MathML of the pieces a long display formula may break into (none when one fails to render)."""
    results = [[rendered[Formula(piece, True)] for piece in statement] for statement in token.meta["statements"]]
    failed = any(result.problem for statement in results for result in statement)
    token.meta["statements_mathml"] = [] if failed else [[r.mathml for r in statement] for statement in results]


def _formulas(tokens):
    """(math token, line where its content starts, Formula) for every formula, in order."""
    for token in tokens:
        if token.type == "math_block":
            yield token, token.map[0] + 1, _display_formula(token)
        for index, (child, line) in enumerate(inline_lines(token)):
            if child.type in ("math_inline", "math_inline_double"):
                child.meta["siblings"], child.meta["index"] = token.children, index
                yield child, line, (_display_formula(child) if child.type == "math_inline_double"
                                    else Formula(child.content.strip(), False))


def _display_formula(token):
    """The Formula of a display math token, noting in it the pieces a long one may break into."""
    latex = token.content.strip()
    statements = display_statements(latex) if visible_length(latex) > BREAKABLE_SYMBOLS else [[latex]]
    token.meta["statements"] = statements if statements != [[latex]] else []
    return Formula(latex, True)


def _line_of(token, line, position):
    """The line of the character at `position` in the stripped formula of `token`, whose content starts at `line`."""
    if line is None or position is None:
        return line
    content = token.content
    before = content[:len(content) - len(content.lstrip()) + position]
    return line + before.count("\n")


def _problem(token, formula, result):
    shown = " ".join(f"{token.markup}{formula.latex}{token.markup}".split())
    return f"cannot render formula `{shown}`: {result.problem}"


def _glue_neighbours(math):
    """Keep the text touching an inline formula ("($x$," or "$k$-th") on its line.

    Browsers may break a line between a formula and the punctuation after it;
    the renderer wraps the formula and the text moved here in a no-wrap span.
    """
    children, index = math.meta["siblings"], math.meta["index"]
    math.meta["before"] = math.meta["after"] = ""
    if index > 0 and children[index - 1].type == "text":
        previous = children[index - 1]
        stuck = re.search(r"\S*$", previous.content).group()
        previous.content, math.meta["before"] = previous.content[:len(previous.content) - len(stuck)], stuck
    if index + 1 < len(children) and children[index + 1].type == "text":
        following = children[index + 1]
        stuck = re.match(r"\S*", following.content).group()
        following.content, math.meta["after"] = following.content[len(stuck):], stuck


def _render_inline_math(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    if not (meta["before"] or meta["after"]):
        return meta["mathml"]
    return f'<span class="nowrap">{escapeHtml(meta["before"])}{meta["mathml"]}{escapeHtml(meta["after"])}</span>'


def _render_display_math(self, tokens, idx, options, env):
    return _display_html("div", tokens[idx].meta) + "\n"


def _render_display_math_in_text(self, tokens, idx, options, env):
    # $$...$$ inside a paragraph: a <div> is not allowed in a <p>; CSS makes the span a block.
    return _display_html("span", tokens[idx].meta)


def _display_html(element, meta):
    statements = meta.get("statements_mathml")
    if not statements:
        return f'<{element} class="math-display">{meta["mathml"]}</{element}>'
    # style.css lays the pieces out on one line and wraps them where the column is too narrow.
    spans = "".join('<span class="math-statement">' + "".join(f'<span class="math-piece">{mathml}</span>'
                                                            for mathml in statement) + "</span>"
                    for statement in statements)
    return f'<{element} class="math-display math-pieces">{spans}</{element}>'


def _render_code(self, tokens, idx, options, env):
    token = tokens[idx]
    language = token.info.split(maxsplit=1)[0] if token.info.strip() else ""
    code_class = f' class="language-{escapeHtml(language)}"' if language else ""
    html = _highlight_python(token.content) if language == "python" else escapeHtml(token.content)
    code = _hanging_lines(html, token.content)
    return f'<pre class="code-block"><code{code_class}>{code}</code></pre>\n'


def _highlight_python(code):
    """`code` as HTML with its tokens in <span class="hl-...">, at build time (no script needed to read it).
    Pygments closes its spans at the end of every line, so the HTML splits into lines as the code does."""
    return highlight(code, _PYTHON, _SPANS)


_PYTHON = PythonLexer(stripnl=False, ensurenl=False)
_SPANS = HtmlFormatter(nowrap=True, classprefix="hl-")


def _hanging_lines(html, text):
    """Each line of a code block (`html`, the HTML of `text`, line for line) in a span that knows its
    indentation: a line too long for a phone wraps under its own start plus a step, not at the left edge
    (style.css: .code-line). The newlines stay in the text, so copying the block copies the code."""
    spans = []
    for line_html, line in zip(html.removesuffix("\n").split("\n"), text.removesuffix("\n").split("\n")):
        indent = len(line) - len(line.lstrip(" "))
        spans.append(f'<span class="code-line" style="--indent: {indent}ch">{line_html}\n</span>')
    return "".join(spans)


_rendered = {}  # Markdown text -> (HTML, None) or (None, MarkdownError)


def _make_parser():
    md = MarkdownIt("commonmark").enable("table")
    # No space inside the dollars and no digit outside them, so "$5 and $10" stays text.
    md.use(dollarmath_plugin, allow_labels=False, allow_space=False, allow_digits=False,
           allow_blank_lines=False, double_inline=True)
    md.add_render_rule("math_inline", _render_inline_math)
    md.add_render_rule("math_inline_double", _render_display_math_in_text)
    md.add_render_rule("math_block", _render_display_math)
    md.add_render_rule("fence", _render_code)
    md.add_render_rule("code_block", _render_code)
    return md


_MD = _make_parser()


@functools.lru_cache(maxsize=256)
def parse_for_checks(text):
    """The tokens of `text` as the renderer parses it, except that an escaped character (`\\$`) stays a
    token of its own (`text_special`), so that checks can tell it from the same character left as text.
    Remembered (every check of a statement reads the same tokens, and the preview's rebuilds the same
    statements): read them, never change them."""
    return tuple(_CHECKS_MD.parse(text, {}))


def inline_lines(inline):
    """(child token, its line in the text) for each child of an inline token."""
    line = inline.map[0] + 1 if inline.map else None
    for child in inline.children or []:
        yield child, line
        if line:
            line += child.content.count("\n") + (child.type in ("softbreak", "hardbreak"))


def code_blocks(text):
    """(info string, code, line of the code's first line) of each fenced code block of `text`."""
    return [(token.info.strip(), token.content, token.map[0] + 2)
            for token in parse_for_checks(text) if token.type == "fence"]


_CHECKS_MD = _make_parser().disable("text_join")

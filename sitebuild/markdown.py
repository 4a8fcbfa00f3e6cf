"""Statement Markdown to HTML: CommonMark + tables, $...$ / $$...$$ math as MathML.

Math is recognised by the dollarmath plugin before any other inline rule sees
it, so `_`, `*` and `\\` inside formulas stay LaTeX; `$` inside code spans and
code blocks stays text, and `\\$` is a literal dollar.
"""

import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from mdit_py_plugins.dollarmath import dollarmath_plugin

from sitebuild.mathml import MathError, to_mathml


class MarkdownError(Exception):
    def __init__(self, message, line=None):
        self.message, self.line = message, line
        super().__init__(f"line {line}: {message}" if line else message)


def render_markdown(text):
    """HTML for Markdown `text`; MarkdownError (with the line) for invalid math."""
    env = {}
    tokens = _MD.parse(text, env)
    for token in tokens:
        line = token.map[0] + 1 if token.map else None
        if token.type == "math_block":
            token.meta["mathml"] = _math(token.content, True, "$$", line)
        children = token.children or []
        for index, child in enumerate(children):
            if child.type in ("softbreak", "hardbreak") and line:
                line += 1
            elif child.type in ("math_inline", "math_inline_double"):
                child.meta["mathml"] = _math(child.content, child.type == "math_inline_double",
                                             child.markup, line)
            if child.type == "math_inline":
                _glue_neighbours(children, index)
    return _MD.renderer.render(tokens, _MD.options, env)


def _glue_neighbours(children, index):
    """Keep the text touching an inline formula ("($x$," or "$k$-th") on its line.

    Browsers may break a line between a formula and the punctuation after it;
    the renderer wraps the formula and the text moved here in a no-wrap span.
    """
    math = children[index]
    math.meta["before"] = math.meta["after"] = ""
    if index > 0 and children[index - 1].type == "text":
        previous = children[index - 1]
        stuck = re.search(r"\S*$", previous.content).group()
        previous.content, math.meta["before"] = previous.content[:len(previous.content) - len(stuck)], stuck
    if index + 1 < len(children) and children[index + 1].type == "text":
        following = children[index + 1]
        stuck = re.match(r"\S*", following.content).group()
        following.content, math.meta["after"] = following.content[len(stuck):], stuck


def _math(latex, display, markup, line):
    try:
        return to_mathml(latex.strip(), display)
    except MathError as exc:
        formula = " ".join(f"{markup}{latex.strip()}{markup}".split())
        raise MarkdownError(f"LaTeX error in {formula}: {exc}", line) from None


def _render_inline_math(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    if not (meta["before"] or meta["after"]):
        return meta["mathml"]
    return f'<span class="nowrap">{escapeHtml(meta["before"])}{meta["mathml"]}{escapeHtml(meta["after"])}</span>'


def _render_display_math(self, tokens, idx, options, env):
    return f'<div class="math-display">{tokens[idx].meta["mathml"]}</div>\n'


def _render_display_math_in_text(self, tokens, idx, options, env):
    # $$...$$ inside a paragraph: a <div> is not allowed in a <p>; CSS makes the span a block.
    return f'<span class="math-display">{tokens[idx].meta["mathml"]}</span>'


def _render_code(self, tokens, idx, options, env):
    token = tokens[idx]
    language = token.info.split(maxsplit=1)[0] if token.info.strip() else ""
    code_class = f' class="language-{escapeHtml(language)}"' if language else ""
    return f'<pre class="code-block"><code{code_class}>{escapeHtml(token.content)}</code></pre>\n'


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

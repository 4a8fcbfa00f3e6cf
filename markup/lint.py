"""What a Markdown text shows by mistake or points to: a `$` left as text, and the addresses of its images and links.

Read from the tokens the renderer works on (markup.markdown), so code spans, code blocks, formulas and
escaped dollars (`\\$`) are told apart exactly as on the page.
"""

import dataclasses
import re

from markup.markdown import inline_lines, parse_for_checks

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

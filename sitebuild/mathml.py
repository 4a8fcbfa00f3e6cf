"""LaTeX to MathML at build time, failing loudly on mistakes latex2mathml lets through."""

import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

# MathML elements that take a fixed number of children; fewer means a missing argument.
ARITY = {
    "mfrac": (2, r"a fraction (\frac) needs a numerator and a denominator"),
    "mroot": (2, r"a root (\sqrt[n]) needs a radicand"),
    "msub": (2, "a subscript (_) has nothing to attach to or no argument"),
    "msup": (2, "a superscript (^) has nothing to attach to or no argument"),
    "msubsup": (3, "a sub/superscript (_ and ^) is missing an argument"),
    "munder": (2, "an under-script is missing an argument"),
    "mover": (2, "an accent or over-script is missing an argument"),
    "munderover": (3, "a limit (_ and ^) is missing an argument"),
}
# Text of these elements is math; an unknown command shows up in it verbatim.
MATH_TOKENS = {"mi", "mo", "mn"}
COMMAND = re.compile(r"\\[A-Za-z]+")


class MathError(Exception):
    """The LaTeX is not valid; the message says why."""


def to_mathml(latex, display=False):
    """MathML for `latex` (a `<math>` element, display="block" or "inline")."""
    _check_braces(latex)
    try:
        mathml = convert(latex, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises many kinds, often without a message
        detail = str(exc).strip()
        raise MathError(f"{_words(type(exc).__name__)}{': ' + detail if detail else ''}") from None
    _check_tree(ET.fromstring(mathml))
    # TeX spaces "/" like a letter; an <mo> gets operator spacing unless told otherwise.
    return mathml.replace("<mo>&#x0002F;</mo>", '<mo lspace="0" rspace="0">&#x0002F;</mo>')


def _check_braces(latex):
    depth, index = 0, 0
    while index < len(latex):
        char = latex[index]
        if char == "\\":
            index += 1  # the next character is escaped (\{, \}, \\)
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                raise MathError("unbalanced braces: '}' without a matching '{'")
        index += 1
    if depth:
        raise MathError(f"unbalanced braces: {depth} '{{' never closed")


def _check_tree(root):
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        if tag in ARITY and len(element) < ARITY[tag][0]:
            raise MathError(ARITY[tag][1])
        unknown = COMMAND.search(element.text or "") if tag in MATH_TOKENS else None
        if unknown:
            raise MathError(f"unknown command {unknown.group()}")


def _words(class_name):
    """'MissingSuperScriptOrSubscriptError' -> 'missing super script or subscript'."""
    words = re.findall(r"[A-Z][a-z]*", class_name.removesuffix("Error"))
    return " ".join(words).lower() or class_name

"""Text that came from a submission (its messages, what it printed, a learner's name), shown safely.

A learner's exception or output may hold control characters (ESC starting a
terminal escape sequence, CR going back over a line, NUL, C1 controls), format
characters (bidi overrides such as U+202E that reverse what follows) or lone
surrogates.  Every output spells them out as escapes, so that nothing a
submission wrote can repaint a terminal, pass for the grader's own lines or
show other text than it holds.
"""

import unicodedata

UNSAFE_CATEGORIES = ("Cc", "Cf", "Cs", "Zl", "Zp")  # controls, format (bidi, zero-width), surrogates, line breaks


def printable(text):
    """`text` with control and format characters (but line breaks and tabs) spelled out as escapes
    (\\x1b, \\r, \\u202e, ...)."""
    return _escape_unsafe(text, lambda char: char.encode("unicode_escape").decode("ascii"))


def json_escaped(line):
    """A line of JSON (as json.dumps writes it) with every unsafe character \\u-escaped: the same
    JSON value, which no viewer of the file can mistake.  (Outside strings, JSON holds none.)"""
    return _escape_unsafe(line, _json_escape)


def _escape_unsafe(text, escape):
    if text.isprintable():  # false for every unsafe character (and for a few safe ones: the slow path checks)
        return text
    return "".join(escape(char) if char not in "\n\t" and unicodedata.category(char) in UNSAFE_CATEGORIES
                   else char for char in text)


def _json_escape(char):
    code = ord(char)
    if code > 0xFFFF:  # a UTF-16 surrogate pair, as JSON spells it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"

"""CSV cells a spreadsheet shows as text: never run as a formula, never split over lines, no control
characters (grader/text.py)."""

import re

from grader.text import printable

NEUTRALISED = ("=", "+", "-", "@", "\t", "\r", "'")  # formula starts, and the quote itself (so it reads back)


def safe_cell(value):
    """`value` as one line of text (line breaks become spaces), with a leading quote when a spreadsheet
    would take it for a formula (also after leading spaces, which spreadsheets skip)."""
    cell = printable(re.sub(r"[\r\n\x85\u2028\u2029]+", " ", str(value)))
    return "'" + cell if cell.startswith(NEUTRALISED) or cell.lstrip().startswith(NEUTRALISED) else cell

"""Small CSV files an instructor gives (a roster, submission times): read whole, each row with its line.

Column names are matched without case, spaces or underscores mattering ("LMS login" is lms_login), a
spreadsheet's UTF-8 byte-order mark is skipped, and every problem is a TableError naming file:line.
Each cell read is checked against what a results record holds of a name (grader/instructor/records.py):
at most NAME_LIMIT characters, and no control character or line break; a table has at most MAX_ROWS rows.
"""

import codecs
import csv
import io
import re
import unicodedata

from grader.instructor.records import NAME_LIMIT
from grader.submission import SubmissionError, display, read_bytes
from grader.text import printable

MAX_TABLE_BYTES = 20_000_000
MAX_ROWS = 100_000  # far above any class; a bigger table is not one an instructor means
UTF16_32 = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class TableError(Exception):
    """A CSV file that cannot be used; the message names the file (and line) and says why."""


def read_table(path, columns, required, strict=False):
    """[(line, {column: text})] of the CSV at `path`; `columns` maps each column read to the header
    names it may have, `required` lists those it must have (the others are None when absent).

    `strict`: the file is only these columns, for files written for the grader (an overrides file), not
    exported from elsewhere: it must not be empty, the header names no other column, and every row has as
    many cells as the header."""
    shown = display(path)
    text = read_text(path, MAX_TABLE_BYTES, "not a table an instructor writes", "save it as CSV UTF-8")
    # Rows end where the csv module ends them (\n, \r\n, \r; not at U+2028 inside a cell), so that its line
    # numbers are the file's.
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        names = next(reader, [])
        header = [_key(cell) for cell in names]
        if strict:
            _check_header(shown, names, columns, required)
        where = {}
        for column, names in columns.items():
            found = [index for index, cell in enumerate(header) if cell in map(_key, names)]
            if len(found) > 1:
                raise TableError(f"{shown}:1: two columns are {column!r}")
            if found:
                where[column] = found[0]
            elif column in required:
                raise TableError(f"{shown}:1: no {column!r} column (the header should name "
                                 f"{', '.join(required)}; it has {_brief(', '.join(header)) or 'nothing'})")
        rows = []
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue  # a blank line, as spreadsheets leave at the end
            if strict and len(cells) != len(header):
                raise TableError(f"{shown}:{reader.line_num}: {len(cells)} cells where the first line names "
                                 f"{len(header)} columns")
            if len(rows) == MAX_ROWS:
                raise TableError(f"{shown}:{reader.line_num}: more than {MAX_ROWS:,} rows: not a class's table")
            row = {column: _cell(cells, index) for column, index in where.items()}
            for column, value in row.items():
                check_text(value, f"{shown}:{reader.line_num}: the {column}")
            rows.append((reader.line_num, row | {column: None for column in columns if column not in where}))
    except csv.Error as exc:
        raise TableError(f"{shown}:{reader.line_num}: not CSV ({exc})") from None
    return rows


def read_text(path, limit, too_large_note, how_to_save):
    """The text of the instructor's file at `path` (UTF-8, a byte-order mark skipped); TableError naming
    file:line otherwise (`how_to_save` says how to fix the encoding)."""
    shown = display(path)
    try:
        data = read_bytes(path, limit, too_large_note)
    except SubmissionError as exc:
        raise TableError(str(exc)) from None
    if data.startswith(UTF16_32):
        raise TableError(f"{shown}:1: UTF-16 or UTF-32 text, not UTF-8 ({how_to_save})")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TableError(f"{shown}:{text_line(exc.object, exc.start)}: not UTF-8 text ({how_to_save})") from None


def check_text(value, what, limit=NAME_LIMIT):
    """TableError unless `value` (None, or text) is at most `limit` characters with no control character or
    line break; `what` starts the message (file:line: the column)."""
    if value is None:
        return
    if len(value) > limit:
        raise TableError(f"{what} has {len(value):,} characters; at most {limit:,} (what a results record "
                         "holds)")
    control = next((char for char in value if unicodedata.category(char) in ("Cc", "Zl", "Zp")), None)
    if control is not None:
        raise TableError(f"{what} holds a control character or a line break (U+{ord(control):04X}): "
                         f"{shown_value(value)}")


def shown_value(value):
    """`value` quoted, briefly, control and format characters escaped (whatever it holds)."""
    text = printable(repr(value[:80] if isinstance(value, str) else value))
    return text if len(text) <= 60 else text[:57] + "..."


def _check_header(shown, cells, columns, required):
    """TableError unless the header's `cells` name each required column, and no other, once."""
    header = [_key(cell) for cell in cells]
    expected = ",".join(names[0] for names in columns.values())
    optional = [names[0] for column, names in columns.items() if column not in required]
    if not header:
        raise TableError(f"{shown}: empty; the first line names the columns: {expected}")
    known = {_key(name) for names in columns.values() for name in names}
    lacking = [column for column in required if not set(map(_key, columns[column])) & set(header)]
    if lacking or any(cell not in known for cell in header) or len(set(header)) < len(header):
        left_out = f" ({', '.join(optional)} may be left out)" if optional else ""
        raise TableError(f"{shown}:1: the columns should be {expected}{left_out}, not {_brief(','.join(cells))}")


def _brief(text):
    """A header as it is shown in a message: printable, its first 200 characters."""
    text = printable(text)
    return text if len(text) <= 200 else text[:200] + "..."


def text_line(data, offset):
    return data.count(b"\n", 0, offset) + 1


def _key(name):
    return re.sub(r"[\s_-]+", "", name.strip().lower())


def _cell(cells, index):
    value = cells[index].strip() if index < len(cells) else ""
    return value or None

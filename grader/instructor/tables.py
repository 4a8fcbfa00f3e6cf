"""Small CSV files an instructor gives (a roster, submission times): read whole, each row with its line.

Column names are matched without case, spaces or underscores mattering ("LMS login" is lms_login), a
spreadsheet's UTF-8 byte-order mark is skipped, and every problem is a TableError naming file:line.
"""

import csv
import re

from grader.submission import SubmissionError, display, read_bytes

MAX_TABLE_BYTES = 20_000_000


class TableError(Exception):
    """A CSV file that cannot be used; the message names the file (and line) and says why."""


def read_table(path, columns, required, strict=False):
    """[(line, {column: text})] of the CSV at `path`; `columns` maps each column read to the header
    names it may have, `required` lists those it must have (the others are None when absent).

    `strict`: the file is only these columns, for files written for the grader (an overrides file), not
    exported from elsewhere: it must not be empty, the header names no other column, and every row has as
    many cells as the header."""
    shown = display(path)
    try:
        text = read_bytes(path, MAX_TABLE_BYTES, "not a table an instructor writes").decode("utf-8-sig")
    except SubmissionError as exc:
        raise TableError(str(exc)) from None
    except UnicodeDecodeError as exc:
        line = text_line(exc.object, exc.start)
        raise TableError(f"{shown}:{line}: not UTF-8 text (save it as CSV UTF-8)") from None
    reader = csv.reader(text.splitlines(), strict=True)
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
                                 f"{', '.join(required)}; it has {', '.join(header) or 'nothing'})")
        rows = []
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue  # a blank line, as spreadsheets leave at the end
            if strict and len(cells) != len(header):
                raise TableError(f"{shown}:{reader.line_num}: {len(cells)} cells where the first line names "
                                 f"{len(header)} columns")
            rows.append((reader.line_num, {column: _cell(cells, index) for column, index in where.items()}
                         | {column: None for column in columns if column not in where}))
    except csv.Error as exc:
        raise TableError(f"{shown}:{reader.line_num}: not CSV ({exc})") from None
    return rows


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
        raise TableError(f"{shown}:1: the columns should be {expected}{left_out}, not {','.join(cells)}")


def text_line(data, offset):
    return data.count(b"\n", 0, offset) + 1


def _key(name):
    return re.sub(r"[\s_-]+", "", name.strip().lower())


def _cell(cells, index):
    value = cells[index].strip() if index < len(cells) else ""
    return value or None

"""Where a key is in a TOML file's text (tomllib gives values, not lines), for errors that name the line."""

import re


def toml_error(path, error):
    """The message of tomllib's `error` for the file at `path`, as `file:line: invalid TOML: ...`."""
    message = str(error)
    where = re.search(r" \(at line (\d+), column (\d+)\)$", message)
    if where is None:
        return f"{path}: invalid TOML: {message}"
    return f"{path}:{where[1]}: invalid TOML: {message[:where.start()]} (column {where[2]})"


def line_of(text, key):
    """The line of the first `key = ...`, or None."""
    match = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None


def line_of_table(text, table):
    """The line of the `[table]` header, or None."""
    match = re.search(rf"^\s*\[\s*{re.escape(table)}\s*\]", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None


def line_of_table_key(text, table, name):
    """The line of `name`'s entry (quoted or bare) in the [table] table, else of the table itself."""
    start = line_of_table(text, table) or 0
    for number, line in enumerate(text.splitlines()[start:], start + 1):
        key = line.split("=", 1)[0].strip()
        if "=" in line and key.strip("\"'") == name:
            return number
    return line_of_table(text, table)

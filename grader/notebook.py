"""Jupyter notebooks: a notebook handed in is graded from its code cells; starter notebooks for learners.

A submission `NAME.ipynb` is read as JSON, its "nbformat" (3 or 4) and "nbformat_minor" checked to be whole
numbers, then validated by nbformat against the notebook schema; anything malformed is a NotebookError
saying why, whatever nbformat raises.  Its code cells, in order, become the Python source graded, each after
a `# cell N` line, so that line numbers in messages lead back to the cell.  Markdown and raw cells and the
outputs are ignored.

The page's Python runs plain Python, not IPython.  IPython's syntax is found as Python's tokenizer reads the
cell: only a line that starts a logical line (not one inside a string, inside brackets or after a
backslash) can be a magic (`%`), a cell magic (`%%`, on the cell's first line), a shell command (`!`) or an
assignment from one (`x = !ls`).  The magics that do not change what the code computes are dropped, each
with a note for the feedback (at most NOTES_KEPT notes): `%matplotlib ...`, `%load_ext autoreload`,
`%autoreload ...`, `%timeit ...` (IPython runs the statement in a namespace of its own: nothing it assigns
is kept) and `%%time` alone on its line (the cell runs once, as written); `%time STATEMENT` runs the
statement, untimed; a `%%timeit` cell is skipped whole (like `%timeit`, nothing it defines is kept).
Any other is refused with the cell and the line, never silently dropped (the code after it may depend on it).
"""

import json
import re
import tokenize
import warnings

import nbformat
from nbformat.validator import get_validator

MAGIC = re.compile(r"(?P<indent>[ \t]*)(?P<magic>%%?|!)(?P<name>\w*)[ \t]*(?P<rest>.*)")
TIMED = re.compile(r"(?P<indent>[ \t]*)(?:%time[ \t]+)+(?P<statement>\S.*)")  # %time STATEMENT
ASSIGNED = re.compile(r"[ \t]*[^\W\d][\w.]*(?:[ \t]*,[ \t]*[^\W\d][\w.]*)*[ \t]*=[ \t]*[%!]")
KINDS = {"%%": "a cell magic", "%": "an IPython magic", "!": "a shell command"}
NO_EFFECT = "it does not change what the code computes"
DROPPED = {"matplotlib": NO_EFFECT, "autoreload": NO_EFFECT,
           "timeit": "IPython times the statement apart: nothing it assigns is kept"}
NOTES_KEPT = 100  # notes on lines dropped, at most; then how many more
REFUSED = "which only IPython runs; remove it (your code is graded as plain Python, as in the browser)"


class NotebookError(Exception):
    """A notebook that cannot be graded; the message says why (and where: the cell and the line)."""


def code_of(text):
    """(the Python source of the notebook `text`: its code cells joined, [notes on the IPython lines dropped]);
    NotebookError if it has no code cell, is not a valid notebook, or uses IPython's syntax not dropped."""
    notebook = _read(text)
    parts, notes = [], []
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type != "code":
            continue
        source = "".join(cell.source) if isinstance(cell.source, list) else cell.source
        python = _python_of(source, number, notes)
        if python is not None:
            parts.append(f"# cell {number}\n{python.rstrip()}\n")
    if not parts:
        raise NotebookError("a Jupyter notebook with no code cell: write your code in a code cell")
    if len(notes) > NOTES_KEPT:
        notes[NOTES_KEPT - 1:] = [f"and {len(notes) - NOTES_KEPT + 1} more IPython lines dropped or run untimed"]
    return "\n".join(parts), notes


def _read(text):
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise NotebookError(f"not a Jupyter notebook ({type(exc).__name__}: {_first_line(str(exc))})") from None
    if type(data) is not dict or "nbformat" not in data:
        raise NotebookError('not a Jupyter notebook of format 3 or 4 (its JSON has no "nbformat": 4)')
    for key, allowed in (("nbformat", "3 or 4"), ("nbformat_minor", "a whole number from 0")):
        value = data.get(key)
        if type(value) is not int or value < 0 or (key == "nbformat" and value not in (3, 4)):
            raise NotebookError(f'not a Jupyter notebook of format 3 or 4 (its "{key}" should be {allowed}, '
                                f'not {_shown(value)})')
    try:
        validator = get_validator(version=data["nbformat"], version_minor=data["nbformat_minor"])
    except KeyError:  # nbformat has no schema for it (format 3 has only 3.0)
        validator = None
    if validator is None:
        raise NotebookError(f"not a Jupyter notebook of a format nbformat knows (format {data['nbformat']}."
                            f"{data['nbformat_minor']})")
    try:
        # The JSON as read, against its format's schema first: nbformat's own code assumes a valid notebook.
        error = next(iter(validator.iter_errors(data)), None)
        if error is not None:
            raise NotebookError(f"not a valid Jupyter notebook ({_first_line(error.message)})")
        with warnings.catch_warnings():  # nbformat warns of what it repairs (cell ids): nothing for the student
            warnings.simplefilter("ignore")
            notebook = nbformat.convert(nbformat.from_dict(data), 4)
            nbformat.validate(notebook)
    except NotebookError:
        raise
    except nbformat.ValidationError as exc:
        raise NotebookError(f"not a valid Jupyter notebook ({_first_line(exc.message)})") from None
    except Exception as exc:  # nbformat's or the schema library's, e.g. on a notebook too deep for it
        raise NotebookError(f"not a valid Jupyter notebook ({type(exc).__name__}: {_first_line(str(exc))})") from None
    return notebook


def _python_of(source, cell, notes):
    """The code cell `source` (number `cell`) as Python: the IPython lines that change nothing dropped (a note
    for each added to `notes`), None for a cell skipped whole; NotebookError at the first other IPython line."""
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((number for number, line in enumerate(lines, 1) if line.strip()), None)
    if first is not None and lines[first - 1].lstrip(" \t").startswith("%%"):
        name, rest = MAGIC.fullmatch(lines[first - 1]).group("name", "rest")
        where = f"cell {cell}, line {first}: {_shown(lines[first - 1].strip())}"
        if name == "timeit":
            notes.append(f"cell {cell}: a '%%timeit' cell was skipped (IPython times it apart: nothing it "
                         "defines is kept)")
            return None
        if name != "time" or rest:  # IPython refuses a statement after %%time too
            raise NotebookError(f"{where} is {KINDS['%%']}, {REFUSED}")
        notes.append(f"{where} was dropped ({NO_EFFECT})")
        lines[first - 1] = ""
    read = iter(range(len(lines)))
    at_start = True  # the next line read starts a logical line

    def readline():
        nonlocal at_start
        number = next(read, None)
        if number is None:
            return ""
        if at_start:
            lines[number] = _plain(lines[number], cell, number + 1, notes)
        at_start = False  # until this line's tokens end a logical line: none do for a line inside a string
        return lines[number] + "\n"

    depth = 0
    try:
        for token in tokenize.generate_tokens(readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth = max(0, depth - 1)
            at_start = token.type == tokenize.NEWLINE or (token.type == tokenize.NL and depth == 0)
    except (tokenize.TokenError, SyntaxError):
        pass  # not Python: the lines not read stay as they are, and grading says where the syntax is wrong
    return "\n".join(lines)


def _plain(line, cell, number, notes):
    """The line `line`, which starts a logical line, as Python: itself, or what stands for IPython's line
    dropped (a note added), or for `%time STATEMENT` the statement; NotebookError for any other IPython line."""
    timed = TIMED.fullmatch(line)
    if timed is not None:
        notes.append(f"cell {cell}, line {number}: {_shown(line.strip())} was run as {_shown(timed['statement'])} "
                     "(untimed)")
        line = timed["indent"] + timed["statement"]
    magic = MAGIC.fullmatch(line)
    where = f"cell {cell}, line {number}: {_shown(line.strip())}"
    if magic is None:
        if ASSIGNED.match(line):
            raise NotebookError(f"{where} assigns what a magic or a shell command gives, {REFUSED}")
        return line
    kind, name, rest = magic.group("magic", "name", "rest")
    if kind == "%" and (name in DROPPED or (name == "load_ext" and rest == "autoreload")):
        notes.append(f"{where} was dropped ({DROPPED.get(name, NO_EFFECT)})")
        return magic.group("indent") + "pass"
    raise NotebookError(f"{where} is {KINDS[kind]}" + (" not on the cell's first line" if kind == "%%" else "")
                        + f", {REFUSED}")


def _first_line(text):
    return (text.strip().splitlines() or [""])[0][:200]


def _shown(value):
    """`value` quoted, at most 80 characters of it."""
    return repr(value[:80] if isinstance(value, str) else value)[:90]


def starter_notebook(exercise, used):
    """The text of a notebook for learners of `exercise`: its title and statement as a Markdown cell, then
    its starter code as a code cell; `used`: the earlier steps whose entry functions are in scope when graded."""
    text = f"# {exercise.title}\n\n{exercise.statement.strip()}"
    if used:
        names = ", ".join(f"`{step.entry}` (step {step.step})" for step in used)
        them = "it" if len(used) == 1 else "them"
        text += (f"\n\n*When this is graded, {names} {'is' if len(used) == 1 else 'are'} in scope: your code may "
                 f"call {them} without defining {them}. To run it here, define {them} in a cell above.*")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                         "language_info": {"name": "python"}}
    notebook.cells = [nbformat.v4.new_markdown_cell(text, id="statement"),
                      nbformat.v4.new_code_cell(exercise.starter.rstrip(), id="starter")]  # not random ids
    nbformat.validate(notebook)
    return nbformat.writes(notebook) + "\n"

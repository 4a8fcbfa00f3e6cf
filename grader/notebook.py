"""Jupyter notebooks: a notebook handed in is graded from its code cells; starter notebooks for learners.

A submission `NAME.ipynb` is read with nbformat (validated against the notebook schema, format 3 or 4) and
its code cells, in order, become the Python source graded, each after a `# cell N` line, so that line
numbers in messages lead back to the cell.  The page's Python runs plain Python, not IPython: a line that
starts with `%` (a magic), `%%` (a cell magic) or `!` (a shell command) is refused with the cell and the
line, never silently dropped (the code after it may depend on it).  Markdown and raw cells and the
outputs are ignored.
"""

import json

import nbformat

IPYTHON_ONLY = (("%%", "a cell magic"), ("%", "an IPython magic"), ("!", "a shell command"))


class NotebookError(Exception):
    """A notebook that cannot be graded; the message says why (and where: the cell and the line)."""


def code_of(text):
    """The Python source of the notebook `text`: its code cells joined; NotebookError if it has none,
    is not a notebook, or uses IPython's syntax."""
    notebook = _read(text)
    parts = []
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type != "code":
            continue
        source = "".join(cell.source) if isinstance(cell.source, list) else cell.source
        _refuse_ipython(source, number)
        parts.append(f"# cell {number}\n{source.rstrip()}\n")
    if not parts:
        raise NotebookError("a Jupyter notebook with no code cell: write your code in a code cell")
    return "\n".join(parts)


def _read(text):
    try:
        data = json.loads(text)
        if type(data) is not dict or data.get("nbformat") not in (3, 4):
            raise NotebookError('not a Jupyter notebook of format 3 or 4 (its JSON has no "nbformat": 4)')
        notebook = nbformat.convert(nbformat.from_dict(data), 4)
        nbformat.validate(notebook)
    except nbformat.ValidationError as exc:
        raise NotebookError(f"not a valid Jupyter notebook ({_first_line(exc.message)})") from None
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        raise NotebookError(f"not a Jupyter notebook ({type(exc).__name__}: {_first_line(str(exc))})") from None
    return notebook


def _refuse_ipython(source, cell):
    for number, line in enumerate(source.splitlines(), 1):
        for prefix, kind in IPYTHON_ONLY:
            if line.lstrip().startswith(prefix):
                raise NotebookError(f"cell {cell}, line {number}: {line.strip()[:80]!r} is {kind}, which only "
                                    "IPython runs; remove it (your code is graded as plain Python, as in the "
                                    "browser)")


def _first_line(text):
    return (text.strip().splitlines() or [""])[0][:200]


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

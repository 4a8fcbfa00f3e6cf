"""A Jupyter notebook is graded from its code cells (check, batch, an assignment, gradescope); the magics that change
nothing are dropped with a note in the feedback, other IPython syntax is refused naming the cell and the line; a
malformed notebook is one line saying why; `new --notebook` writes starter notebooks that are graded in place of .py."""

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.exercise import EXERCISES_DIR
from grader.instructor.records import record_problem
from grader.notebook import NotebookError, code_of

ROOT = Path(__file__).resolve().parent.parent
SOFTMAX = EXERCISES_DIR / "softmax"
PE = EXERCISES_DIR / "sinusoidal_pe"
SOLUTION = (SOFTMAX / "solution.py").read_text()


def grader(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)})


def notebook(*code_cells):
    """A notebook's text: a Markdown cell, then these code cells."""
    cells = [nbformat.v4.new_markdown_cell("# My softmax\n%this is Markdown, not code")]
    cells += [nbformat.v4.new_code_cell(source) for source in code_cells]
    return nbformat.writes(nbformat.v4.new_notebook(cells=cells))


def saved_by_jupyter(*cells):
    """A notebook's text as Jupyter (notebook 7, JupyterLab 4) saves it: format 4.5, cell ids, execution counts,
    outputs, one space of indent; `cells`: (cell type, source) pairs."""
    saved = []
    for number, (kind, source) in enumerate(cells, 1):
        cell = {"cell_type": kind, "id": f"c0ffee{number:02d}", "metadata": {},
                "source": source.splitlines(keepends=True)}
        if kind == "code":
            cell.update(execution_count=number, outputs=[{"name": "stdout", "output_type": "stream",
                                                          "text": ["CPU times: user 2 µs\n"]}])
        saved.append(cell)
    metadata = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                "language_info": {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                                  "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                                  "pygments_lexer": "ipython3", "version": "3.11.7"}}
    return json.dumps({"cells": saved, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}, indent=1,
                      ensure_ascii=False) + "\n"


def saved_by_ipython_2(source):
    """A notebook's text as IPython 2 saved it: format 3.0, the cells in a worksheet, "input" for the source."""
    cell = {"cell_type": "code", "collapsed": False, "input": source.splitlines(keepends=True), "language": "python",
            "metadata": {}, "outputs": [], "prompt_number": 1}
    return json.dumps({"metadata": {"name": "", "signature": "sha256:"}, "nbformat": 3, "nbformat_minor": 0,
                       "worksheets": [{"cells": [cell], "metadata": {}}]}, indent=1) + "\n"


SPLIT = SOLUTION.index("def softmax")
IMPORTS, BODY = SOLUTION[:SPLIT], SOLUTION[SPLIT:]
# Magics that change nothing, and what only looks like IPython's syntax: a continuation line inside brackets that
# starts with `!=` or `%`, a docstring's line that starts with `%`.
JUPYTER = saved_by_jupyter(
    ("markdown", "# Softmax\n%this is Markdown"),
    ("code", "%matplotlib inline\n%load_ext autoreload\n%autoreload 2\n" + IMPORTS),
    ("code", '%%time\n' + BODY + '\n\ndef check(x):\n    """Is x a distribution?\n%: percent.\n    """\n'
             '    return (x.sum()\n            != 1) or bool(x.size\n        % 2)\n'),
    ("code", "%timeit softmax(np.ones(3))\n%time y = softmax(np.ones(3))\n"),
    ("code", "%%timeit\nsoftmax = None  # IPython times this apart: nothing it defines is kept\n"))
JUPYTER_NOTES = [
    "cell 2, line 1: '%matplotlib inline' was dropped (it does not change what the code computes)",
    "cell 2, line 2: '%load_ext autoreload' was dropped (it does not change what the code computes)",
    "cell 2, line 3: '%autoreload 2' was dropped (it does not change what the code computes)",
    "cell 3, line 1: '%%time' was dropped (it does not change what the code computes)",
    "cell 4, line 1: '%timeit softmax(np.ones(3))' was dropped (IPython times the statement apart: nothing it "
    "assigns is kept)",
    "cell 4, line 2: '%time y = softmax(np.ones(3))' was run as 'y = softmax(np.ones(3))' (untimed)",
    "cell 5: a '%%timeit' cell was skipped (IPython times it apart: nothing it defines is kept)"]
REFUSED = "which only IPython runs; remove it (your code is graded as plain Python, as in the browser)"
NOTEBOOKS = {
    "good.ipynb": notebook(IMPORTS, BODY),
    "bom.ipynb": "\ufeff" + notebook(SOLUTION),
    "jupyter.ipynb": JUPYTER,
    "ipython2.ipynb": saved_by_ipython_2(SOLUTION),
    "magic.ipynb": notebook(SOLUTION, "x = 1\n%run helper.py\n"),
    "shell.ipynb": notebook("!pip install numpy\n" + SOLUTION),
    "cell_magic.ipynb": notebook("%%bash\n" + SOLUTION),
    "scipy.ipynb": notebook("import scipy\n" + SOLUTION),
    "no_code.ipynb": notebook(),
    "broken.ipynb": '{"cells": [',
    "float_format.ipynb": notebook(SOLUTION).replace('"nbformat": 4', '"nbformat": 4.0'),
    "text_minor.ipynb": notebook(SOLUTION).replace('"nbformat_minor": 5', '"nbformat_minor": "5"'),
}


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("notebooks")
    for name, text in NOTEBOOKS.items():
        (folder / "class" / name).parent.mkdir(exist_ok=True)
        (folder / "class" / name).write_text(text, encoding="utf-8")
    process = grader("batch", "softmax", folder / "class", "--out", folder / "results.jsonl", "--timeout", "5")
    assert process.returncode == 0, process.stderr
    records = {r["submission"]: r for r in map(json.loads, (folder / "results.jsonl").read_text().splitlines())}
    not_graded = process.stdout.split("Not graded (", 1)[1].split("\n", 1)[1].split("\n\n")[0].splitlines()
    return records, not_graded


def test_a_notebook_is_graded_from_its_code_cells(batch):
    records, _ = batch
    for name in ("good.ipynb", "bom.ipynb", "jupyter.ipynb", "ipython2.ipynb"):
        assert records[name]["passed"] and records[name]["score"] == records[name]["max_score"] == 7, name
    scipy = records["scipy.ipynb"]
    assert not scipy["passed"] and "No module named 'scipy'" in scipy["error"]  # the browser's import rule


def test_the_magics_that_change_nothing_are_dropped_with_a_note_in_the_record_and_the_feedback(batch, tmp_path):
    records, _ = batch
    assert records["jupyter.ipynb"]["notes"] == JUPYTER_NOTES
    assert "notes" not in records["good.ipynb"]  # a record has notes only when there are some
    for notes, problem in (([3], "notes.0: should be text, not 3"), ("x", "notes: should be a list of at most")):
        assert record_problem({**records["jupyter.ipynb"], "notes": notes}).startswith(problem)
    results = tmp_path / "jupyter.jsonl"
    results.write_text(json.dumps(records["jupyter.ipynb"]) + "\n")
    made = grader("report", results, "--exercise", "softmax", "--reports", tmp_path / "reports")
    assert made.returncode == 0, made.stderr
    (markdown,), (html,) = (list((tmp_path / "reports" / "feedback").glob(f"*.{kind}")) for kind in ("md", "html"))
    feedback = markdown.read_text()
    assert f"- **C{JUPYTER_NOTES[0][1:]}**" in feedback
    gradescope, = (tmp_path / "reports" / "gradescope").glob("*.json")
    assert f"\n  {JUPYTER_NOTES[-1]}" in json.loads(gradescope.read_text())["output"]
    assert "<li>cell 4, line 2: &#x27;%time y = softmax(np.ones(3))&#x27; was run as" in html.read_text()


def test_ipython_syntax_and_broken_notebooks_are_listed_with_the_cell_and_the_line(batch):
    records, not_graded = batch
    assert not_graded == [
        "  broken.ipynb: not a Jupyter notebook (JSONDecodeError: Expecting value: line 1 column 12 (char 11))",
        f"  cell_magic.ipynb: cell 2, line 1: '%%bash' is a cell magic, {REFUSED}",
        '  float_format.ipynb: not a Jupyter notebook of format 3 or 4 (its "nbformat" should be 3 or 4, not 4.0)',
        f"  magic.ipynb: cell 3, line 2: '%run helper.py' is an IPython magic, {REFUSED}",
        "  no_code.ipynb: a Jupyter notebook with no code cell: write your code in a code cell",
        f"  shell.ipynb: cell 2, line 1: '!pip install numpy' is a shell command, {REFUSED}",
        '  text_minor.ipynb: not a Jupyter notebook of format 3 or 4 (its "nbformat_minor" should be a whole number '
        "from 0, not '5')",
    ]
    assert sorted(records) == ["bom.ipynb", "good.ipynb", "ipython2.ipynb", "jupyter.ipynb", "scipy.ipynb"]


def test_check_grades_a_notebook_and_refuses_a_magic_or_a_malformed_notebook_with_exit_2(tmp_path):
    for name in ("jupyter.ipynb", "magic.ipynb", "float_format.ipynb"):
        (tmp_path / name).write_text(NOTEBOOKS[name])
    good = grader("check", "softmax", tmp_path / "jupyter.ipynb", "--json", "--timeout", "5")
    assert good.returncode == 0 and json.loads(good.stdout)["passed"]
    assert json.loads(good.stdout)["notes"] == JUPYTER_NOTES
    text = grader("check", "softmax", tmp_path / "jupyter.ipynb", "--timeout", "5")
    assert text.returncode == 0 and f"  Note: {JUPYTER_NOTES[0]}" in text.stdout.splitlines()
    for name, says in (("magic.ipynb", "magic.ipynb: cell 3, line 2: '%run helper.py'"),
                       ("float_format.ipynb", 'float_format.ipynb: not a Jupyter notebook of format 3 or 4')):
        refused = grader("check", "softmax", tmp_path / name, "--timeout", "5")
        assert refused.returncode == 2 and refused.stderr.startswith("error: ") and says in refused.stderr
        assert len(refused.stderr.splitlines()) == 1, refused.stderr


def cell(*sources):
    return code_of(notebook(*sources))


def test_ipython_syntax_is_found_on_logical_lines_only():
    honest = ["x = (1\n!= 2)\ny = [3,\n%2]\n", 'def f():\n    """Doc.\n%not a magic\n!nor a command\n    """\n',
              '"""\n%a module docstring\n"""\n', "z = 1 + \\\n%2\n", "# %matplotlib inline\ns = '%run x'\n",
              "t = {1: 2,\n     # comment\n!= 3}\n"]
    for source in honest:
        assert cell(source) == (f"# cell 2\n{source.rstrip()}\n", []), source
    code, notes = cell("if True:\n    %matplotlib inline\nx = 1\r%autoreload 2\r\ny = 2")
    assert code == "# cell 2\nif True:\n    pass\nx = 1\npass\ny = 2\n"  # a statement still, line numbers kept
    assert [note.split(":")[0] for note in notes] == ["cell 2, line 2", "cell 2, line 4"]
    refused = {"x = 1\n%load_ext other\n": "cell 2, line 2: '%load_ext other' is an IPython magic",
               "files = !ls\n": "cell 2, line 1: 'files = !ls' assigns what a magic or a shell command gives",
               "x = 1\n%%time\n": "cell 2, line 2: '%%time' is a cell magic not on the cell's first line",
               "%%time x = 1\ny = 2\n": "cell 2, line 1: '%%time x = 1' is a cell magic",
               "def f():\n    return 1\n  !ls\n": "cell 2, line 3: '!ls' is a shell command",
               "%time\n": "cell 2, line 1: '%time' is an IPython magic"}
    for source, says in refused.items():
        with pytest.raises(NotebookError) as error:
            cell(source)
        assert str(error.value).startswith(says) and str(error.value).endswith(REFUSED), source
    assert cell("def f(:\n%matplotlib inline\n")[0].endswith("%matplotlib inline\n")  # grading says where
    code, notes = cell("%time " * 100_000 + "x = 1\n" + "%matplotlib inline\n" * 200)  # in bounded time and notes
    assert code == "# cell 2\nx = 1\n" + "pass\n" * 200 and len(notes) == 100
    assert notes[-1] == "and 102 more IPython lines dropped or run untimed"


def test_any_malformed_notebook_is_one_line_saying_why():
    """A few hundred notebooks mutated from one Jupyter saved: each is read, or refused with one line; never
    another exception.  And what no mutation reaches: nesting deeper than any parser goes, huge ones."""
    hostile = ["4.0", '"5"', "null", "[]", "{}", "-1", "true", "3", "1" + "0" * 30, '"' + "x" * 5000 + '"',
               '"\\u0000"', '[1, "a"]', '["%matplotlib inline\\n", 7]', "[" * 300 + "]" * 300, "1e308",
               '"\\ud800"', '"%%bash"', '{"cells": {}}']
    rng = random.Random(35)
    outcomes = {"read": 0, "refused": 0}
    for _ in range(400):
        data = json.loads(JUPYTER)
        for _ in range(rng.randint(1, 3)):
            where = rng.choice(list(_places(data))[1:])
            parent = data
            for key in where[:-1]:
                parent = parent[key]
            if isinstance(parent, dict) and rng.random() < 0.2:
                del parent[where[-1]]
            else:
                parent[where[-1]] = json.loads(rng.choice(hostile))
        text = json.dumps(data)
        if rng.random() < 0.1:
            text = text[:rng.randrange(len(text))]
        try:
            code, notes = code_of(text)
            assert isinstance(code, str) and all(isinstance(note, str) for note in notes)
            outcomes["read"] += 1
        except NotebookError as error:
            assert str(error) and "\n" not in str(error), str(error)
            outcomes["refused"] += 1
    assert outcomes["read"] > 10 and outcomes["refused"] > 300  # both kinds were met
    deep = '{"nbformat": 4, "nbformat_minor": 5, "metadata": {"a": ' + "[" * 100_000 + "]" * 100_000 + '}, "cells": []}'
    for text in (deep, deep.replace("100", "9"), "[" * 900 + "]" * 900, '{"nbformat": 3, "nbformat_minor": 7}',
                 notebook("x = 1\n" * 50_000 + "%matplotlib inline\n" * 50_000)):
        try:
            code_of(text)
        except NotebookError as error:
            assert "\n" not in str(error)


def _places(node, path=()):
    """The path of every value in the JSON `node`."""
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _places(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _places(value, path + (index,))


def test_starter_notebooks_for_an_assignment_are_graded_in_place_of_the_python_files(tmp_path):
    (tmp_path / "week3.toml").write_text('[[exercise]]\nid = "softmax"\n\n[[exercise]]\nid = "attention"\n'
                                         'file = "attn.py"\n')
    made = grader("new", "--notebook", tmp_path / "week3.toml", "-o", tmp_path / "starters")
    assert made.returncode == 0, made.stderr
    assert sorted(p.name for p in (tmp_path / "starters").iterdir()) == ["attn.ipynb", "softmax.ipynb"]
    attention = nbformat.reads((tmp_path / "starters" / "attn.ipynb").read_text(), as_version=4)
    nbformat.validate(attention)
    assert [cell.cell_type for cell in attention.cells] == ["markdown", "code"]
    assert attention.cells[0].source.startswith("# Scaled dot-product attention\n")
    assert "`softmax` (step 5) is in scope" in attention.cells[0].source
    assert attention.cells[1].source == (EXERCISES_DIR / "attention" / "starter.py").read_text().rstrip()

    ada = tmp_path / "class" / "ada"  # hands in the starters, softmax's filled in with the solution
    shutil.copytree(tmp_path / "starters", ada)
    softmax = nbformat.reads((ada / "softmax.ipynb").read_text(), as_version=4)
    softmax.cells[1].source = SOLUTION
    (ada / "softmax.ipynb").write_text(nbformat.writes(softmax))
    graded = grader("batch", tmp_path / "class", "--assignment", tmp_path / "week3.toml", "--out",
                    tmp_path / "r.jsonl", "--timeout", "5")
    assert graded.returncode == 0, graded.stderr
    records = {r["exercise"]: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert records["softmax"]["passed"] and "missing" not in records["attention"]
    assert not records["attention"]["passed"] and records["attention"]["error"] is None  # the starter loads


def test_new_notebook_for_one_exercise_and_its_mistakes(tmp_path):
    made = grader("new", "--notebook", "softmax", cwd=tmp_path)
    assert made.returncode == 0 and (tmp_path / "softmax.ipynb").is_file()
    again = grader("new", "--notebook", "softmax", "-o", tmp_path / "again.ipynb")
    assert again.returncode == 0 and (tmp_path / "again.ipynb").read_bytes() == (tmp_path / "softmax.ipynb").read_bytes()  # no random ids
    wrong = grader("new", "--notebook", "softmax", "--step", "3", cwd=tmp_path)
    assert wrong.returncode == 2 and "--step is not for it" in wrong.stderr


def test_gradescope_finds_a_notebook_in_an_uploaded_folder(tmp_path):
    (tmp_path / "upload" / "hw3").mkdir(parents=True)
    (tmp_path / "upload" / "hw3" / "softmax.ipynb").write_text(NOTEBOOKS["good.ipynb"])
    results = tmp_path / "results.json"
    process = grader("gradescope", "--exercise", "softmax", "--submission", tmp_path / "upload",
                     "--results", results, "--timeout", "5")
    assert process.returncode == 0, process.stderr
    assert json.loads(results.read_text())["score"] == 7

"""A Jupyter notebook is graded from its code cells (check, batch, an assignment, gradescope); IPython's syntax is
refused naming the cell and the line; `new --notebook` writes starter notebooks that are graded in place of .py."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.exercise import EXERCISES_DIR

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


SPLIT = SOLUTION.index("def softmax")
NOTEBOOKS = {
    "good.ipynb": notebook(SOLUTION[:SPLIT], SOLUTION[SPLIT:]),
    "bom.ipynb": "\ufeff" + notebook(SOLUTION),
    "magic.ipynb": notebook(SOLUTION, "x = 1\n%matplotlib inline\n"),
    "shell.ipynb": notebook("!pip install numpy\n" + SOLUTION),
    "cell_magic.ipynb": notebook("%%time\n" + SOLUTION),
    "scipy.ipynb": notebook("import scipy\n" + SOLUTION),
    "no_code.ipynb": notebook(),
    "broken.ipynb": '{"cells": [',
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
    assert records["good.ipynb"]["passed"] and records["bom.ipynb"]["passed"]
    assert records["good.ipynb"]["score"] == records["good.ipynb"]["max_score"] == 7
    scipy = records["scipy.ipynb"]
    assert not scipy["passed"] and "No module named 'scipy'" in scipy["error"]  # the browser's import rule


def test_ipython_syntax_and_broken_notebooks_are_listed_with_the_cell_and_the_line(batch):
    _, not_graded = batch
    assert not_graded == [
        "  broken.ipynb: not a Jupyter notebook (JSONDecodeError: Expecting value: line 1 column 12 (char 11))",
        "  cell_magic.ipynb: cell 2, line 1: '%%time' is a cell magic, which only IPython runs; remove it (your "
        "code is graded as plain Python, as in the browser)",
        "  magic.ipynb: cell 3, line 2: '%matplotlib inline' is an IPython magic, which only IPython runs; remove "
        "it (your code is graded as plain Python, as in the browser)",
        "  no_code.ipynb: a Jupyter notebook with no code cell: write your code in a code cell",
        "  shell.ipynb: cell 2, line 1: '!pip install numpy' is a shell command, which only IPython runs; remove "
        "it (your code is graded as plain Python, as in the browser)",
    ]


def test_check_grades_a_notebook_and_refuses_a_magic_with_exit_2(tmp_path):
    (tmp_path / "good.ipynb").write_text(NOTEBOOKS["good.ipynb"])
    (tmp_path / "magic.ipynb").write_text(NOTEBOOKS["magic.ipynb"])
    good = grader("check", "softmax", tmp_path / "good.ipynb", "--json", "--timeout", "5")
    assert good.returncode == 0 and json.loads(good.stdout)["passed"]
    magic = grader("check", "softmax", tmp_path / "magic.ipynb", "--timeout", "5")
    assert magic.returncode == 2
    assert magic.stderr.startswith("error: ") and "magic.ipynb: cell 3, line 2: '%matplotlib inline'" in magic.stderr


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

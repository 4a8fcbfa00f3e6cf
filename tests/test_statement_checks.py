"""Statements are checked: runnable examples against the reference, stray `$`, doubled backslashes and wide inline
formulas, images and relative links."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader.exercise import load_all, load_exercise
from grader.authoring.scaffold import create_exercise
from grader.authoring.statement_checks import statement_assets, statement_problems
from grader.authoring.statement_examples import find_examples, outputs_match
from grader.authoring.validate import validate_exercise
from markup.lint import (MAX_INLINE_EM, Reference, doubled_backslashes, inline_width_em, references, stray_dollars,
                         wide_inline_formulas)

ROOT = Path(__file__).resolve().parents[1]
CDN = "https://cdn.jsdelivr.net/pyodide/v0.27.7/full/"
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>\n'


def test_a_dollar_left_as_text_is_found_on_its_line():
    text = ("Fine: $x$, `$y`, \\$5 and $$z$$.\n"
            "Stray: $ y$ has a space inside.\n"
            "\n"
            "```python\n"
            "price = '$'\n"
            "```\n"
            "\n"
            "| a | b |\n"
            "|---|---|\n"
            "| $c$ | 5$ |\n"
            "\n"
            "Last: $unclosed\n")
    assert stray_dollars(text) == [2, 10, 12]


def test_a_doubled_backslash_before_a_command_is_found_on_its_line():
    text = ("Fine: $\\mathrm{PE}[t]$ and a line break in\n\n"
            "$$\n\\begin{aligned} a &= b \\\\ c &= d \\\\\\mathrm{e} \\end{aligned}\n$$\n\n"
            "Doubled: $x = W_E[i] + \\\\mathrm{PE}[t]$, and `\\\\mathrm` in code is code.\n")
    assert doubled_backslashes(text) == [(7, "x = W_E[i] + \\\\mathrm{PE}[t]")]


def test_inline_formulas_wider_than_the_column_are_found():
    short = "x_0 = [1, -1, 1, -1] + [0, 1, 0, 1] = [1, 0, 1, 0]"
    long = "dx = [2, 0, 0, 0] - 0.5 - \\hat{x} \\cdot (-0.5) = [1.5, -0.5, -0.5, -0.5] + [-0.5, -0.5, 0.5, 0.5]"
    assert inline_width_em(short) < MAX_INLINE_EM < inline_width_em(long)
    assert inline_width_em("\\cos(s - t)") > inline_width_em("c(s - t)")  # a named function draws its letters
    text = f"One ${short}$.\n\nTwo ${long}$.\n\n$$\n{long}\n$$\n"  # a display formula may break: not counted
    assert [(line, formula) for line, formula, _ in wide_inline_formulas(text)] == [(3, long)]


def test_formulas_are_checked_in_the_statement_hints_and_how_it_works(tmp_path):
    folder = create_exercise("demo", tmp_path, draft=False)
    long = " + ".join(f"w_{{{i}}} x_{{{i}}}" for i in range(12))
    (folder / "how_it_works.md").write_text(f"Why it works.\n\nAll of it: ${long}$.\n")
    toml = folder / "exercise.toml"
    toml.write_text(toml.read_text().replace("hints = [", "hints = [\n  'Doubled: $\\\\mathrm{PE}$',", 1))
    problems = statement_problems(load_exercise(folder))
    shown = folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder
    assert problems[0] == (f"{shown}/exercise.toml: hint 1: the formula `\\\\mathrm{{PE}}` has a doubled backslash "
                           f"before a command, a line break the page follows with italic letters: write one backslash "
                           f"(in exercise.toml a \"...\" string needs two, a '...' string one)")
    assert problems[1].startswith(f"{shown}/how_it_works.md:3: the inline formula `w_{{0}} x_{{0}} + w_{{1}}")
    assert re.search(r"…` is about [\d.]+ em wide, wider than the statement column \(37.5 em at 1280 px\): make it a "
                     r"display formula \(\$\$...\$\$, an aligned block for a chain of steps\)", problems[1])
    assert len(problems) == 2


def test_images_and_links_are_read_from_markdown_and_html():
    text = ("Intro.\n\n![a figure](img/a.png) and <img src=\"b.svg\">\n"
            "then [softmax](../softmax/) and [x](https://x.org)\n")
    assert references(text) == [Reference(3, "image", "img/a.png"), Reference(3, "image", "b.svg"),
                                Reference(4, "link", "../softmax/"), Reference(4, "link", "https://x.org")]


@pytest.mark.parametrize("written, shown, same", [
    ("[0.25 0.75]", "[0.25 0.75]", True),
    ("[[ 1. -1.]\n [ 0.  2.]]", "[[ 1. -1.]\n [ 0.  2.]]", True),
    ("[ 3. -1.]", "[3. -1.]", True),                 # numpy's padding for a sign elsewhere
    ("(' ab', [0, 1])", "(' ab', [0, 1])", True),
    ("[0.25 0.76]", "[0.25 0.75]", False),
    ("1.386294...", "1.3862943611198906", True),     # written to 6 decimals: within one unit of the last
    ("0.306882...", "0.30688158", True),             # rounded, not truncated
    ("0.3068...", "0.3070", False),
    ("[1.5e-06... 2]", "[1.5000003e-06 2]", True),
    ("[1. 0.]", "[1.4 0. ]", False),                 # no `...`: exact
])
def test_outputs_are_compared_as_printed(written, shown, same):
    assert outputs_match(written, shown) is same


def test_an_output_must_follow_an_expression():
    statement = ("Text.\n\n```python\nmerges = train(3)    # -> [(97, 97)]\nmerges\n# -> [(97, 97)]\n```\n\n"
                 "```python\nnot runnable(  # no output mark\n```\n\n```text\nx  # -> 1\n```\n")
    examples, problems = find_examples(statement)
    assert problems == [(4, "a `# ->` output must follow a top-level expression, on its last line or on the line "
                            "after it")]
    [example] = examples
    assert [(output.line, output.expected, output.expression) for output in example.outputs] == \
        [(6, "[(97, 97)]", "merges")]


BROKEN_STATEMENT = """## Problem

Write `demo(x)`, the softmax of each row. It costs $ 5 nothing.

![diagram](figures/diagram.svg) and ![missing](figures/missing.png)

See [the first step](../first/), [the second](../secnod/), [a page](notes.html), [the tests](tests.py) and [the repo](../../README.md).

```python
demo(np.array([[0.0, np.log(3.0)]]))    # -> [[0.25 0.76]]
x = np.zeros((1, 2))
demo(x)
# -> [[0.5 0.5]]
demo(np.array([[1000.0, 1001.0]])).round(4)
# -> [[0.2689 0.7311]]
```

```python
demo(np.zeros(3))   # -> raises, as the reference works on 2-D arrays only
```
"""


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    """A valid scaffold whose statement then gets every kind of mistake, validated once."""
    root = tmp_path_factory.mktemp("exercises")
    create_exercise("first", root, draft=False)
    create_exercise("second", root, draft=False)
    folder = create_exercise("demo", root, draft=False)
    (folder / "figures").mkdir()
    (folder / "figures" / "diagram.svg").write_text(SVG)
    (folder / "statement.md").write_text(BROKEN_STATEMENT)
    return folder, validate_exercise(folder, sandbox_mode="auto")


def test_validate_names_each_statement_problem_with_its_line(broken):
    folder, result = broken
    where = f"{folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder}/statement.md"
    problems = [problem for problem in result.problems if "statement.md" in problem]
    assert problems[:6] == [
        f"{where}:3: a `$` that starts no formula is shown as a dollar sign: close the formula (`$x$`, no space "
        f"inside the dollars) or write `\\$` for a dollar sign",
        f"{where}:5: missing image 'figures/missing.png': no such file in the exercise's folder",
        f"{where}:7: dead link '../secnod/': there is no exercise secnod beside this one (did you mean second?)",
        f"{where}:7: dead link 'notes.html': no such file in the exercise's folder",
        f"{where}:7: link 'tests.py': tests.py is part of the exercise itself and is not published",
        f"{where}:7: link '../../README.md' points outside the exercise's folder: only files inside it are "
        f"published (and other exercises' pages, as `../softmax/`)",
    ]
    wrong, raised = problems[6:]
    assert wrong == (f"{where}:10: `demo(np.array([[0.0, np.log(3.0)]]))` shows another output than the reference "
                     f"gives:\n      written:\n        [[0.25 0.76]]\n      reference:\n        [[0.25 0.75]]")
    assert re.fullmatch(rf"{re.escape(where)}:19: this example raises AxisError: axis 1 is out of bounds for "
                        rf"array of dimension 1 \(in solution.py:\d+\)", raised)
    assert "  ✗ statement.md: 4 example output(s) checked against the reference; no stray $; images and links found" \
        in result.lines
    assert not result.ok


def test_the_build_refuses_the_same_statement_with_its_line(broken, tmp_path):
    folder, result = broken
    built = subprocess.run([sys.executable, str(ROOT / "build.py"), "--exercises", folder.parent,
                            "--out", tmp_path / "_site", "--pyodide-url", CDN],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert built.returncode != 0
    # Every problem found without running the examples, each with its line, as `validate` says it.
    found_statically = [problem for problem in result.problems if "statement.md" in problem][:6]
    assert built.stderr.splitlines() == ["error: " + found_statically[0], *found_statically[1:]]
    assert not (tmp_path / "_site").exists()


def test_the_build_copies_what_the_statement_shows(tmp_path):
    root = tmp_path / "exercises"
    create_exercise("first", root, draft=False)
    folder = create_exercise("second", root, draft=False)
    (folder / "figures").mkdir()
    (folder / "figures" / "diagram.svg").write_text(SVG)
    (folder / "figures" / "unused.svg").write_text(SVG)
    statement = folder / "statement.md"
    statement.write_text(statement.read_text().replace(
        "## Input", "![The softmax of a row](figures/diagram.svg)\n\nAs in [the first step](../first/).\n\n## Input"))
    out = tmp_path / "_site"
    built = subprocess.run([sys.executable, str(ROOT / "build.py"), "--exercises", root, "--out", out,
                            "--pyodide-url", CDN], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    page = (out / "exercises" / "second" / "index.html").read_text()
    assert '<img src="figures/diagram.svg" alt="The softmax of a row" />' in page
    assert '<a href="../first/">the first step</a>' in page
    assert (out / "exercises" / "second" / "figures" / "diagram.svg").read_text() == SVG
    assert not (out / "exercises" / "second" / "figures" / "unused.svg").exists()
    sw = (out / "sw.js").read_text()
    assert "exercises/second/figures/diagram.svg" in json.loads(sw.split("const BUILD = ", 1)[1].split(";\n", 1)[0])[
        "pages"]


def test_shipped_statements_have_runnable_examples_and_no_stray_dollars():
    exercises = load_all()
    runnable = [exercise.id for exercise in exercises if find_examples(exercise.statement)[0]]
    assert len(runnable) >= 10
    assert {"softmax", "gelu", "bpe_train", "layer_norm_backward"} <= set(runnable)
    assert [exercise.id for exercise in exercises if stray_dollars(exercise.statement)] == []
    assert [problem for exercise in exercises for problem in statement_problems(exercise)] == []
    assert all(not find_examples(exercise.statement)[1] for exercise in exercises)
    assert load_exercise("softmax").statement.count("# -> ") == 5
    aligned = find_examples(load_exercise("softmax").statement)[0][1].outputs[0]
    assert aligned.expected == "[[0.5        0.73105858 0.88079708]\n [0.5        0.26894142 0.11920292]]"
    assert statement_assets(load_exercise("causal_attention")) == [Path("figures/causal_mask.svg")]


def test_the_build_refuses_a_wrong_example_output_with_its_line(tmp_path):
    root = tmp_path / "exercises"
    statement = create_exercise("demo", root, draft=False) / "statement.md"
    statement.write_text(statement.read_text().replace("#     [0.25 0.75]]", "#     [0.25 0.7]]"))
    line = statement.read_text().splitlines().index("# -> [[0.5  0.5 ]") + 1
    built = subprocess.run([sys.executable, str(ROOT / "build.py"), "--exercises", root, "--out", tmp_path / "_site",
                            "--pyodide-url", CDN], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert built.returncode == 2
    # The two outputs as they print, a line per row.
    assert (f"demo/statement.md:{line}: `demo(np.array([[0.0, 0.0], [0.0, np.log(3.0)]]))` shows another output "
            f"than the reference gives:\n      written:\n        [[0.5  0.5 ]\n         [0.25 0.7]]\n      "
            f"reference:\n        [[0.5  0.5 ]\n         [0.25 0.75]] (`python -m grader validate demo` gives the full "
            f"report)") in built.stderr, built.stderr

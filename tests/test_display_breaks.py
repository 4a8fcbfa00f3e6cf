"""Long display formulas are cut where they may break on a phone: statements, then relations, at the top level."""

import re

from markup.display_breaks import display_statements, visible_length
from markup.markdown import render_markdown

ATTENTION = (r"S_{ij} = \frac{1}{\sqrt{d}} \sum_{m} Q_{im} K_{jm}, \qquad "
             r"A_{ij} = \frac{\exp(S_{ij})}{\sum_j \exp(S_{ij})}")


def test_statements_are_cut_at_separators_and_before_relations():
    assert display_statements(ATTENTION) == [
        ["S_{ij}", r"= \frac{1}{\sqrt{d}} \sum_{m} Q_{im} K_{jm},"],
        ["A_{ij}", r"= \frac{\exp(S_{ij})}{\sum_j \exp(S_{ij})}"]]


def test_nothing_is_cut_inside_groups_delimiters_or_environments():
    for latex in [r"\begin{aligned} a &= b \\ c &= d \end{aligned}", r"\left( a = b \right)", r"f(a = b)",
                  r"\big|\{\, i : 0 \le i < n \,\}\big|", r"x^{a = b}"]:
        assert display_statements(latex) == [[latex]]


def test_a_condition_stays_one_clause():
    assert display_statements(r"x_t = y_t \quad \text{for } t = 0, \ldots, T") == [
        ["x_t", "= y_t"], [r"\text{for } t = 0, \ldots, T"]]


def test_visible_length_counts_symbols_not_markup():
    assert visible_length(r"\mathrm{softmax}(z)_{i} = \frac{e^{z_i}}{\sum_j e^{z_j}}") == len("softmax(z)i=ezixjezj")
    assert visible_length(r"a \qquad b") == 4


def test_a_long_display_formula_renders_as_pieces_a_short_one_whole():
    html = render_markdown(f"$$\n{ATTENTION}\n$$\n")
    assert html.count('class="math-statement"') == 2 and html.count('class="math-piece"') == 4
    assert len(re.findall(r"<math ", html)) == 4
    assert render_markdown("$$\na = b\n$$\n").count("<math ") == 1
    inline = render_markdown(f"Text\n$$\n{ATTENTION}\n$$\nmore text.\n")  # $$ inside a paragraph
    assert '<span class="math-display math-pieces">' in inline

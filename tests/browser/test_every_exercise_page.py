"""Every exercise page in Chromium shows its starter, accepts its reference solution, and its statement fits.

That starters fail is checked offline for every exercise (tests/test_validate.py), and that the page grades
as offline by tests/browser/test_parity.py: one run per page here (each run costs an interpreter boot).

A module of its own: it visits every page of the catalogue, the longest single test of the suite, and
pytest-xdist (--dist loadscope) hands out whole modules, so on its own it runs beside the other page tests.
The statement is measured on the same visit, at desktop and phone widths (resizing costs less than a visit).
"""

import json

from page_helpers import EXERCISES, editor_text, grade_in_page

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
# Display formulas that cannot break on a phone: tables of equations whose rows are each one step of a
# derivation, with a note in a column of their own. They scroll, with the affordance of wide formulas.
UNBREAKABLE_ON_PHONES = {
    ("gpt_loss_and_grads", r"\begin{aligned} \bar{z} &= \big(\mathrm{softmax}(z) - Y\big) / T"),
    ("transformer_block_backward", r"\begin{aligned} \bar{W}_2 &= g^\top \overline{\mathrm{out}}"),
}

# What sticks out of the statement column: display and inline formulas wider than it, and code blocks that scroll
# sideways; for each formula, whether it shows that it scrolls (a display one: a visible scrollbar and a "scroll"
# cue; an inline one: a visible scrollbar and the fade at the edge where more is hidden).
TOO_WIDE = """async () => {
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));  // scroll-boxes.js
    const statement = document.getElementById("statement");
    const wide = box => box.scrollWidth > box.clientWidth + 1;
    const latex = box => [...box.querySelectorAll("annotation")].map(a => a.textContent).join(" ")
        .replace(/\\s+/g, " ").trim();
    const affordance = box => box.classList.contains("scroll-box") && box.dataset.more === "right"
        && getComputedStyle(box, "::after").content.includes("scroll")
        && getComputedStyle(box).scrollbarWidth !== "none";
    const inlineAffordance = box => box.classList.contains("scroll-box") && box.dataset.more === "right"
        && getComputedStyle(box).maskImage.includes("gradient") && getComputedStyle(box).scrollbarWidth !== "none";
    return {
        width: statement.getBoundingClientRect().width,
        formulas: [...statement.querySelectorAll(".math-display")].filter(wide)
            .map(box => ({latex: latex(box), scrollWidth: box.scrollWidth, clientWidth: box.clientWidth,
                          affordance: affordance(box)})),
        inline: [...statement.querySelectorAll("math:not([display='block'])")]
            .filter(math => !math.closest(".math-display")).filter(wide)
            .map(math => ({latex: latex(math), scrollWidth: math.scrollWidth, clientWidth: math.clientWidth,
                           affordance: inlineAffordance(math)})),
        code: [...statement.querySelectorAll("pre")].filter(wide).map(box => box.textContent.slice(0, 80)),
    };
}"""


def unbreakable(exercise_id, latex):
    return any(exercise_id == known and latex.startswith(prefix) for known, prefix in UNBREAKABLE_ON_PHONES)


def statement_overflow(page, exercise_id):
    """{size: what is too wide} on this exercise page, at the desktop and the phone sizes."""
    found = {}
    for name, size in (("1280", DESKTOP), ("390", PHONE)):
        page.set_viewport_size(size)
        measured = page.evaluate(TOO_WIDE)
        assert measured["width"] > 0, f"{exercise_id}: the statement is not shown at {name} px"
        formulas = [f for f in measured["formulas"]
                    if name == "1280" or not (f["affordance"] and unbreakable(exercise_id, f["latex"]))]
        # At 1280 px every inline formula fits; on a phone a long one may scroll, showing that it does.
        inline = [f for f in measured["inline"] if name == "1280" or not f["affordance"]]
        code = measured["code"] if name == "390" else []
        if formulas or inline or code:
            found[name] = {"formulas": formulas, "inline formulas": inline, "code blocks": code}
    return found


def test_each_exercise_page_shows_its_starter_and_accepts_its_solution(page, base_url):
    # One page, reaching each exercise by its link on the index (the runtime stays loaded).
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url}/index.html")
    wrong, too_wide = {}, {}
    for exercise_id in sorted(p.parent.name for p in EXERCISES.glob("*/exercise.toml")):
        page.click(f'a[href="exercises/{exercise_id}/"]')
        page.wait_for_function("id => document.body.dataset.exerciseId === id && window.editorView", arg=exercise_id)
        if overflow := statement_overflow(page, exercise_id):
            too_wide[exercise_id] = overflow
        page.set_viewport_size(DESKTOP)
        shown_starter = editor_text(page) == (EXERCISES / exercise_id / "starter.py").read_text()
        report = grade_in_page(page, (EXERCISES / exercise_id / "solution.py").read_text())
        if not shown_starter or not report["passed"]:
            wrong[exercise_id] = {"editor shows the starter": shown_starter, "solution": report}
        page.go_back()
        page.wait_for_function("document.body.dataset.exerciseId === undefined")
    assert not wrong, json.dumps(wrong, indent=1)
    # At 1280 px no formula, display or inline, is wider than the statement; on a phone no display formula is
    # either, but for the tables that cannot break, which show that they scroll, and an inline formula wider than
    # the column shows that it scrolls; no statement code block scrolls sideways.
    assert not too_wide, json.dumps(too_wide, indent=1)

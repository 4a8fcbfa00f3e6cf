"""Panes you can work in (issue 24, point 4): on wide screens the statement and the workspace scroll each in its own
pane, split by a separator that the mouse and the keyboard move and that is remembered; the hints are reached without
losing the code; statement code is highlighted and has copy buttons, the reference too; "Compare with the reference"
is a full-width line diff, highlighted. One page boots Python once for all of it."""

from conftest import wait_until_ready
from page_helpers import SOLUTION, run_and_wait, set_code
from test_layout_and_access import AXE, axe_violations, settle
from test_verdict_in_view import HIDDEN_PX

WIDTH_KEY = "mlex:layout:statement-width"  # as site/js/pane-split.js

STATEMENT_SHARE = """() => {
    const page = document.querySelector('.exercise-page'), style = getComputedStyle(page);
    const width = page.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return 100 * document.getElementById('problem-pane').getBoundingClientRect().width / width;
}"""


def test_separator_moves_by_keyboard_and_mouse_and_is_remembered(open_exercise, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_exercise()
    separator = page.locator("[role=separator]")
    assert separator.is_visible() and separator.get_attribute("aria-valuenow") == "50"
    assert abs(page.evaluate(STATEMENT_SHARE) - 50) < 0.5

    separator.focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    assert separator.get_attribute("aria-valuenow") == "44"
    assert abs(page.evaluate(STATEMENT_SHARE) - 44) < 0.5
    assert page.evaluate(f"localStorage.getItem('{WIDTH_KEY}')") == "44"
    page.keyboard.press("Home")
    assert separator.get_attribute("aria-valuenow") == separator.get_attribute("aria-valuemin") == "25"
    page.keyboard.press("End")
    assert separator.get_attribute("aria-valuenow") == separator.get_attribute("aria-valuemax") == "70"

    # Dragged to 40% of the page's content box.
    box = separator.bounding_box()
    target = page.evaluate("""() => { const page = document.querySelector('.exercise-page');
        const style = getComputedStyle(page), left = page.getBoundingClientRect().left + parseFloat(style.paddingLeft);
        return left + 0.4 * (page.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)); }""")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(target, box["y"] + box["height"] / 2, steps=5)
    page.mouse.up()
    assert separator.get_attribute("aria-valuenow") == "40"
    assert page.evaluate(f"localStorage.getItem('{WIDTH_KEY}')") == "40"

    page.reload()
    wait_until_ready(page)
    assert separator.get_attribute("aria-valuenow") == "40"
    assert abs(page.evaluate(STATEMENT_SHARE) - 40) < 0.5

    # On a phone the Problem and Code tabs take its place.
    page.set_viewport_size({"width": 390, "height": 844})
    settle(page)
    assert separator.is_hidden() and page.locator("[role=tablist]").is_visible()


def test_hints_reached_without_losing_the_code_and_code_blocks_copied(open_exercise, page, context):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.set_viewport_size({"width": 1280, "height": 800})
    open_exercise()
    statement = page.locator("#problem-pane")
    assert statement.evaluate("s => getComputedStyle(s).overflowY === 'auto' && s.scrollHeight > s.clientHeight")

    # The jump link to the hints scrolls the statement's pane only: the page and the editor stay.
    page.click(".pane-jumps a[href='#hints']")
    page.click("#hint-button")
    assert page.locator("#hints ol > li").first.is_visible()
    assert page.evaluate(HIDDEN_PX, "#hints ol > li") == 0
    assert statement.evaluate("s => s.scrollTop") > 0 and page.evaluate("window.scrollY") == 0
    assert page.evaluate(HIDDEN_PX, "#editor") == 0
    # Wheeling down the statement does not move the workspace either.
    workspace_top = page.locator("#code-pane").bounding_box()["y"]
    statement.evaluate("s => s.scrollTo(0, 0)")
    page.mouse.move(300, 400)
    page.mouse.wheel(0, 1500)
    page.wait_for_function("document.getElementById('problem-pane').scrollTop > 0")
    assert page.locator("#code-pane").bounding_box()["y"] == workspace_top and page.evaluate("window.scrollY") == 0

    # Statement code: highlighted at build time, copied by its button (a live region says so).
    block = page.locator("#statement pre.code-block").first
    assert block.locator(".hl-c1").count() == 2 and block.locator(".hl-mi").count() == 3  # comments, numbers
    block.scroll_into_view_if_needed()
    block.hover()
    copy = page.locator("#statement .code-frame .copy-button").first
    assert copy.is_visible()
    copy.click()
    page.wait_for_function("b => b.textContent === 'Copied'", arg=copy.element_handle())  # the clipboard is async
    assert page.locator("main [role=status].visually-hidden").inner_text() == "The code is copied to the clipboard."
    assert page.evaluate("navigator.clipboard.readText()") == block.text_content()
    page.wait_for_function("b => b.textContent === 'Copy'", arg=copy.element_handle(), timeout=5_000)

    # A pass with code unlike the reference: the reference shows, with its own copy button; the comparison
    # is a dialog as wide as the window, lines only in yours (−) and only in the reference (+), highlighted.
    mine = SOLUTION.replace("    return pe", "    # done\n    return pe").replace("two_i", "even")
    set_code(page, mine)
    assert run_and_wait(page).startswith("6/6")
    page.locator("#solution").wait_for(state="visible")
    page.click(".pane-jumps a[href='#solution']")
    page.locator("#solution .copy-button").click()
    page.wait_for_function("() => document.querySelector('#solution .copy-button').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == SOLUTION

    page.click(".compare-button")
    dialog = page.locator(".diff-dialog")
    page.locator(".diff-dialog .diff").wait_for()
    assert dialog.evaluate("d => d.open && d.getBoundingClientRect().width >= 0.9 * innerWidth")
    yours = page.locator(".diff tr.diff-yours .diff-code").all_text_contents()
    reference = page.locator(".diff tr.diff-reference .diff-code").all_text_contents()
    assert "    # done" in yours and all("two_i" in line for line in reference) and reference
    assert all("even" in line for line in yours if line != "    # done")
    assert page.locator(".diff-verdict").inner_text() == "3 lines only in yours, 2 lines only in the reference."
    assert page.locator(".diff .diff-code .hl-k").count() > 0 and page.locator(".diff .diff-code .hl-c").count() > 0
    assert page.locator(".diff tr.diff-yours .diff-sign").first.text_content() == "−only in yours"
    page.add_script_tag(path=str(AXE))
    violations = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        settle(page)
        violations += axe_violations(page, f"comparison, {scheme}")
    assert not violations, "\n".join(violations)
    page.click(".diff-close")
    assert dialog.count() == 0

"""After Run the verdict comes to the learner (issue 24, point 1): at phone, laptop and large desktop sizes, light
and dark, the summary's box is inside the viewport and not under the sticky header (or the phone's tabs), and after
a pass so is the success panel's "Next step". On wide screens the editor stays where it was (the page itself does not
scroll: the results sit under the editor, in the workspace's pane)."""

import pytest

from page_helpers import EXERCISES, SOLUTION, set_code, show_pane, wait_for_results

SIZES = {"phone": (390, 844), "laptop": (1280, 800), "desktop": (1920, 1080)}
WRONG = (EXERCISES / "sinusoidal_pe" / "mutants" / "positions_from_one.py").read_text()

# The part of `selector`'s box hidden by the window's edges or by the sticky bars at the top: 0 when fully in view.
HIDDEN_PX = """selector => {
    const box = document.querySelector(selector)?.getBoundingClientRect();
    if (!box || box.height === 0) return null;
    const bars = [...document.querySelectorAll('.site-header, .pane-tabs')].filter(bar => bar.getClientRects().length);
    const top = Math.max(0, ...bars.map(bar => bar.getBoundingClientRect().bottom));
    return Math.max(0, top - box.top) + Math.max(0, box.bottom - innerHeight);
}"""


def wait_in_view(page, selector):
    """Wait (a smooth scroll takes a moment) until `selector` is fully in view; fails with how much is hidden."""
    try:
        page.wait_for_function(f"({HIDDEN_PX})({selector!r}) === 0", timeout=5_000)
    except Exception:
        hidden = page.evaluate(HIDDEN_PX, selector)
        pytest.fail(f"{selector} is not in view after Run: {hidden} px of it hidden")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_verdict_and_next_step_are_in_view_after_run(open_exercise, page, scheme):
    open_exercise()
    page.emulate_media(color_scheme=scheme)
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        show_pane(page, "code")
        wide = name != "phone"

        # A failing run, started with the Run button (scrolled to, as a learner would on a phone).
        set_code(page, WRONG)
        page.evaluate("window.scrollTo(0, 0)")
        page.locator("#run-button").scroll_into_view_if_needed()
        page.click("#run-button")
        assert wait_for_results(page) == "3/6 tests passed", name
        wait_in_view(page, "#results .summary")
        if wide:
            assert page.evaluate("window.scrollY") == 0, name
            assert page.evaluate(HIDDEN_PX, "#editor") == 0, name

        # A passing run, started with Ctrl+Enter in the editor at the top of the page.
        set_code(page, SOLUTION)
        page.evaluate("window.scrollTo(0, 0)")
        page.locator("#editor .cm-content").click()
        page.keyboard.press("Control+Enter")
        assert wait_for_results(page).startswith("6/6"), name
        wait_in_view(page, "#results .summary")
        wait_in_view(page, "#results .success-panel .next-step")
        if wide:
            assert page.evaluate("window.scrollY") == 0, name
            assert page.evaluate(HIDDEN_PX, "#editor") == 0, name

"""Live preview in a real browser: an open page reloads itself after an edit, shows a failed rebuild in a
dismissable bar that leaves the editor's buttons usable, and loses it on the next good build."""

import pytest

from live_server import live_server
from page_helpers import show_pane


@pytest.fixture
def served(tmp_path):
    with live_server(tmp_path) as (base, exercise):
        yield base, exercise / "statement.md"


def test_open_page_reloads_after_an_edit_and_shows_a_failed_build(context, served):
    base, statement = served
    page = context.new_page()
    page.goto(f"{base}/exercises/sinusoidal_pe/")
    page.evaluate("window.notReloadedYet = true")

    statement.write_text(statement.read_text() + "\n\nA sentence added while the page was open.\n")
    page.wait_for_function("!window.notReloadedYet", timeout=120_000)
    page.wait_for_selector("text=A sentence added while the page was open.", timeout=30_000)
    good = statement.read_text()

    statement.write_text(good + "\n\nBroken: $\\frac{1}$\n")
    banner = page.locator(".live-build-error")
    banner.wait_for(state="visible", timeout=120_000)
    text = banner.inner_text()
    assert "statement.md:" in text and "\\frac{1}" in text, text  # the file, the line and the formula

    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        show_pane(page, "code")
        page.locator("#run-button").click(trial=True)  # visible, enabled, and not covered by the bar
        run, bar = page.locator("#run-button").bounding_box(), banner.bounding_box()
        assert run["y"] >= bar["y"] + bar["height"], (width, run, bar)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.evaluate("window.scrollTo(0, 0)")

    page.locator(".skip-link").focus()  # the skip link stays first; the bar's button is next
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "live-build-error-close"
    page.keyboard.press("Enter")
    assert banner.is_hidden()
    for _ in range(2):  # the same error, polled again, stays dismissed
        with page.expect_response("**/__live/build"):
            pass
    assert banner.is_hidden()

    page.evaluate("window.notReloadedYet = true")
    statement.write_text(good + "\n\nFixed.\n")
    page.wait_for_function("!window.notReloadedYet", timeout=120_000)
    page.wait_for_selector("text=Fixed.", timeout=30_000)
    assert page.locator(".live-build-error").is_hidden()

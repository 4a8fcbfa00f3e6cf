"""Live preview in a real browser: an open page reloads itself after an edit and shows a failed rebuild."""

import pytest

from live_server import live_server


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

    statement.write_text(statement.read_text() + "\n\nBroken: $\\frac{1}$\n")
    banner = page.locator(".live-build-error")
    banner.wait_for(state="visible", timeout=120_000)
    assert "statement.md" in banner.inner_text()

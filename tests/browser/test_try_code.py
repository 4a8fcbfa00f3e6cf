""""Try your code": the learner's own calls, run against the editor's code, never graded, saved per exercise."""

from playwright.sync_api import expect

from page_helpers import RUN_MS, SOLUTION, set_code, wait_for_editor

EXAMPLE = "pe = sinusoidal_pe(4, 8)\nprint(pe.shape)           # (4, 8)\n"
RAISES = "def sinusoidal_pe(T, C):\n    return T / (C - C)\n"


def tried(page, press="Control+Enter"):
    """Run the calls from the keyboard (in the box) or with the button; the output shown once the run ends."""
    if press == "button":
        page.click("#try-button")
    else:
        page.focus("#try-input")
        page.keyboard.press(press)
    page.wait_for_function("""() => !document.getElementById('try-output').hidden
        && !document.getElementById('try-output').hasAttribute('aria-busy')""", timeout=RUN_MS)
    return page.locator("#try-output").inner_text()


def test_try_runs_calls_against_the_code_without_grading_and_keeps_them(open_exercise):
    page = open_exercise()
    wait_for_editor(page)
    box = page.locator("#try-input")
    assert box.is_hidden()
    page.focus("#try-code summary")
    page.keyboard.press("Enter")  # opens it from the keyboard
    assert box.input_value().startswith(EXAMPLE)  # taken from the statement's example

    set_code(page, SOLUTION)
    output = tried(page)
    assert output.startswith("(4, 8)\n[0. 1. 0. 1. 0. 1. 0. 1.]")
    assert page.locator("#results .results-placeholder").is_visible()  # no grading
    assert page.evaluate("localStorage.getItem('mlex:progress:sinusoidal_pe')") is None  # not an attempt

    set_code(page, RAISES)
    box.fill("x = 1\nprint(sinusoidal_pe(2, 3))\n")
    assert tried(page, press="button") == (
        "ZeroDivisionError: division by zero\n"
        "Traceback (your code, most recent call last):\n"
        "  line 2 of your calls, in <module>: print(sinusoidal_pe(2, 3))\n"
        "  line 2, in sinusoidal_pe: return T / (C - C)")
    assert page.locator("#try-output .try-error").is_visible()

    box.fill("print('looping')\nwhile True:\n    pass\n")
    page.click("#try-button")
    expect(page.locator("#try-output")).to_have_text("looping\n", timeout=RUN_MS)  # shown while it runs
    assert page.locator("#try-output").get_attribute("aria-busy") == "true"
    page.locator("#stop-button").click()
    expect(page.locator("#try-output")).to_have_text("looping\nStopped: you pressed Stop.", timeout=RUN_MS)
    assert page.locator("#try-button").is_enabled()

    # Saved per exercise: another exercise has its own box; coming back (and reloading) restores this one.
    page.click("a[rel=next]")
    page.wait_for_function("document.body.dataset.exerciseId === 'relative_shift'")
    assert "relative_shift(2, 4)" in page.locator("#try-input").input_value()
    page.go_back()
    page.wait_for_function("document.body.dataset.exerciseId === 'sinusoidal_pe'")
    assert page.locator("#try-input").input_value() == "print('looping')\nwhile True:\n    pass\n"
    page.reload()
    expect(page.locator("#try-input")).to_be_visible()  # open, as it was left with calls of the learner's
    assert page.locator("#try-input").input_value() == "print('looping')\nwhile True:\n    pass\n"

"""Editor settings, keyboard and theme (issue 24, point 6): the "⚙ Editor" menu (font size, wrapping, compact
gutter, Tab indents) remembered and applied without losing the undo history; Tab leaving the editor until the
learner opts in; the pictures of a failed comparison read by keyboard; the header's theme switch overriding the
system's scheme; Reset asking in the page and offering Undo."""

from page_helpers import EXERCISES, STARTER, editor_text, run_and_wait, set_code, show_pane, wait_for_editor
from test_layout_and_access import AXE, DESKTOP, PHONE, axe_violations, settle

MUTANT = (EXERCISES / "sinusoidal_pe/mutants/swapped_sin_cos.py").read_text()
DARK_EDITOR, LIGHT_EDITOR = "rgb(30, 34, 40)", "rgb(255, 255, 255)"  # editor.js's two themes


def editor_state(page):
    return page.evaluate("""() => {
        const editor = document.querySelector('#editor .cm-editor');
        const gutters = editor.querySelector('.cm-gutters');
        const fold = editor.querySelector('.cm-foldGutter');
        return {fontSize: getComputedStyle(editor).fontSize,
                wraps: editor.querySelector('.cm-content').classList.contains('cm-lineWrapping'),
                foldGutter: fold !== null && fold.getBoundingClientRect().width > 0,
                lintGutter: editor.querySelector('.cm-gutter-lint') !== null,
                gutterShare: gutters.getBoundingClientRect().width / editor.getBoundingClientRect().width};
    }""")


def open_settings(page):
    if not page.locator("#editor-settings").evaluate("menu => menu.open"):
        page.click("#editor-settings summary")


def test_editor_settings_are_applied_at_once_kept_across_a_reload_and_keep_the_undo_history(open_exercise, page):
    open_exercise()
    assert editor_state(page) | {"gutterShare": None} == {
        "fontSize": "14px", "wraps": True, "foldGutter": True, "lintGutter": True, "gutterShare": None}
    set_code(page, "x = 1\n")  # an edit to undo afterwards

    open_settings(page)
    page.select_option("#editor-font-size", "18")
    page.uncheck("#editor-wrap")
    page.check("#editor-compact-gutter")
    state = editor_state(page)
    assert [state[name] for name in ("fontSize", "wraps", "foldGutter", "lintGutter")] == ["18px", False, False, False]
    # Reconfigured, not recreated: the edit made before is still undoable.
    page.click("#editor .cm-content")
    page.keyboard.press("ControlOrMeta+z")
    assert editor_text(page) == STARTER

    # Escape closes the menu and gives the focus back to its summary.
    open_settings(page)
    page.focus("#editor-wrap")
    page.keyboard.press("Escape")
    assert not page.locator("#editor-settings").evaluate("menu => menu.open")
    assert page.evaluate("document.activeElement.matches('#editor-settings summary')")
    # It also closes when the focus leaves it.
    page.keyboard.press("Enter")
    assert page.locator("#editor-settings").evaluate("menu => menu.open")
    page.click("#editor .cm-content")
    assert not page.locator("#editor-settings").evaluate("menu => menu.open")

    page.reload()
    wait_for_editor(page)
    state = editor_state(page)
    assert [state[name] for name in ("fontSize", "wraps", "foldGutter", "lintGutter")] == ["18px", False, False, False]
    assert page.locator("#editor-font-size").input_value() == "18"
    assert not page.locator("#editor-wrap").is_checked() and page.locator("#editor-compact-gutter").is_checked()

    # Settings that do not hold are ignored: another version of the site may have saved anything.
    page.evaluate("localStorage.setItem('mlex:editor-settings', JSON.stringify({fontSize: 99, wrap: 'no'}))")
    page.reload()
    wait_for_editor(page)
    assert editor_state(page)["fontSize"] == "14px" and editor_state(page)["wraps"]


def test_the_gutter_is_compact_by_default_on_a_phone(page, base_url):
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url}/exercises/sinusoidal_pe/")
    wait_for_editor(page)
    show_pane(page, "code")
    phone = editor_state(page)
    assert not phone["foldGutter"] and not phone["lintGutter"]
    assert phone["gutterShare"] < 0.1, phone  # it was a quarter of the width
    open_settings(page)
    assert page.locator("#editor-compact-gutter").is_checked()
    page.uncheck("#editor-compact-gutter")  # the learner's choice wins over the width
    assert editor_state(page)["foldGutter"]
    page.set_viewport_size(DESKTOP)
    page.reload()
    wait_for_editor(page)
    assert editor_state(page)["foldGutter"]


def test_tab_leaves_the_editor_until_tab_indents_is_turned_on(open_exercise, page):
    open_exercise()
    set_code(page, "import numpy as np")
    hint = page.locator(f"#{page.locator('#editor .cm-content').get_attribute('aria-describedby')}")
    assert "Tab moves on" in hint.text_content()
    page.click("#editor .cm-content")
    page.keyboard.press("ControlOrMeta+Home")
    for _ in range(8):
        page.keyboard.press("Tab")  # the 8 Tabs: they go through the page, not into the code
    assert editor_text(page) == "import numpy as np"
    page.click("#editor .cm-content")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "run-button"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.classList.contains('cm-content')")

    open_settings(page)
    page.check("#editor-tab-indents")
    assert "Esc then Tab" in hint.text_content()
    page.click("#editor .cm-content")
    page.keyboard.press("ControlOrMeta+Home")
    page.keyboard.press("Tab")
    assert editor_text(page) == "    import numpy as np"
    page.keyboard.press("Shift+Tab")
    assert editor_text(page) == "import numpy as np"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "run-button"

    page.reload()
    wait_for_editor(page)
    page.click("#editor .cm-content")
    page.keyboard.press("ControlOrMeta+Home")
    page.keyboard.press("Tab")
    assert editor_text(page) == "    import numpy as np"


def test_pictures_of_a_failed_comparison_are_read_by_keyboard(open_exercise, page):
    open_exercise()
    set_code(page, MUTANT)
    run_and_wait(page)
    figure = page.locator("#results .comparison").first
    pictures = figure.locator("canvas")
    assert pictures.count() == 3
    for i in range(3):
        assert pictures.nth(i).get_attribute("tabindex") == "0" and pictures.nth(i).get_attribute("role") == "img"
        assert "Arrow keys" in pictures.nth(i).get_attribute("aria-label")
    readout = figure.locator(".figure-readout")
    assert readout.get_attribute("aria-live") == "polite"

    pictures.nth(1).focus()
    page.keyboard.press("ArrowDown")  # the first key shows the first entry
    assert readout.inner_text().startswith("Row 0, column 0: yours ")
    scroll = page.evaluate("window.scrollY")
    for key in ("ArrowDown", "ArrowRight", "ArrowRight", "ArrowLeft", "ArrowUp", "ArrowUp", "ArrowDown"):
        page.keyboard.press(key)
    text = readout.inner_text()
    assert text.startswith("Row 1, column 1: yours ") and ", expected " in text and ", difference " in text, text
    # Rows of sin and cos swapped: at row 1, column 1 yours is sin(1) where cos(1) is expected.
    assert "yours 0.8415, expected 0.5403" in text, text
    page.keyboard.press("End")
    assert page.evaluate("window.scrollY") == scroll  # the keys move the cursor, not the page
    last_column = page.evaluate("""() => document.querySelector('#results .comparison canvas').width - 1""")
    assert readout.inner_text().startswith(f"Row 1, column {last_column}:")

    # The cursor shows on all three pictures, on the same cell.
    cursors = figure.locator(".comparison-cursor")
    assert cursors.count() == 3
    boxes = [cursors.nth(i).evaluate("c => [c.style.left, c.style.top]") for i in range(3)]
    assert all(cursors.nth(i).is_visible() for i in range(3)) and boxes[0] == boxes[1] == boxes[2], boxes


def body_background(page):
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_the_theme_switch_overrides_the_system_and_is_remembered(page, base_url):
    page.emulate_media(color_scheme="dark")
    page.goto(f"{base_url}/index.html")
    page.add_script_tag(path=str(AXE))
    dark = body_background(page)
    assert page.locator(".theme-switch input[value=system]").is_checked()
    assert page.evaluate("document.documentElement.dataset.scheme") == "dark"

    page.locator(".theme-switch label", has_text="Light").click()
    light = body_background(page)
    assert light != dark and page.evaluate("localStorage.getItem('mlex:theme')") == "light"
    assert page.evaluate("document.documentElement.dataset.scheme") == "light"
    violations = axe_violations(page, "index, light over a dark system")

    # On an exercise (an in-page navigation: a new header) the choice shows, and the editor follows it.
    page.locator(".exercise-link").first.click()
    wait_for_editor(page)
    assert page.locator(".theme-switch input[value=light]").is_checked()
    assert page.locator("#editor .cm-editor").evaluate("e => getComputedStyle(e).backgroundColor") == LIGHT_EDITOR
    settle(page)
    violations += axe_violations(page, "exercise, light over a dark system")
    page.locator(".theme-switch label", has_text="Dark").click()
    page.emulate_media(color_scheme="light")
    assert body_background(page) == dark
    assert page.locator("#editor .cm-editor").evaluate("e => getComputedStyle(e).backgroundColor") == DARK_EDITOR
    settle(page)
    violations += axe_violations(page, "exercise, dark over a light system")

    # Applied before any module runs, so the first paint has it: without page.js, the page is still dark.
    page.route("**/assets/page.js*", lambda route: route.abort())
    page.goto(f"{base_url}/index.html")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark" and body_background(page) == dark
    page.add_script_tag(path=str(AXE))
    violations += axe_violations(page, "index, dark over a light system")
    page.unroute("**/assets/page.js*")

    # Auto follows the system again; the switch is three radios, so arrow keys choose too.
    page.goto(f"{base_url}/index.html")
    page.focus(".theme-switch input[value=dark]")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("localStorage.getItem('mlex:theme')") == "light"
    page.keyboard.press("ArrowLeft")
    assert body_background(page) == light and page.evaluate("localStorage.getItem('mlex:theme')") is None
    page.emulate_media(color_scheme="dark")
    assert body_background(page) == dark
    # The media query's change event is a task of its own: data-scheme follows once it has run.
    page.wait_for_function("document.documentElement.dataset.scheme === 'dark'")
    assert not violations, "\n".join(violations)


def test_reset_asks_in_the_page_and_can_be_undone(open_exercise, page):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_exercise()
    set_code(page, "# my work\n")
    reset = page.locator("#reset-button")

    reset.click()
    assert page.locator("#reset-question").is_visible() and reset.is_hidden()
    assert page.evaluate("document.activeElement.id") == "reset-yes"
    page.keyboard.press("Escape")  # as Cancel
    assert reset.is_visible() and page.locator("#reset-confirm").is_hidden()
    assert page.evaluate("document.activeElement.id") == "reset-button"
    assert editor_text(page) == "# my work\n"

    reset.click()
    page.click("#reset-no")
    assert editor_text(page) == "# my work\n" and reset.is_visible()

    reset.click()
    page.click("#reset-yes")
    assert editor_text(page) == STARTER
    assert page.locator("#reset-status").inner_text() == "Code reset to the starter."
    assert page.evaluate("document.activeElement.id") == "reset-undo"
    assert page.evaluate("localStorage.getItem('mlex:code:sinusoidal_pe')") == STARTER  # saved at once
    page.click("#reset-undo")
    assert editor_text(page) == "# my work\n"
    assert page.locator("#reset-status").inner_text() == "Your code is back."
    assert page.locator("#reset-undo").is_hidden() and reset.is_visible()
    assert page.evaluate("localStorage.getItem('mlex:code:sinusoidal_pe')") == "# my work\n"

    # The reset is an ordinary edit too: Ctrl/⌘+Z in the editor undoes it; the next edit ends the Undo offer.
    reset.click()
    page.click("#reset-yes")
    page.click("#editor .cm-content")
    page.keyboard.press("ControlOrMeta+z")
    assert editor_text(page) == "# my work\n"
    assert page.locator("#reset-undo").is_hidden() and page.locator("#reset-status").inner_text() == ""
    assert reset.is_visible()
    assert dialogs == []

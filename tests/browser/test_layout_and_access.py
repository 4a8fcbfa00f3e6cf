"""Layout and accessibility in Chromium: axe-core on every page (light and dark, desktop and phone), the phone's
Problem / Code tabs, the editor's wrapping and keyboard exit, formulas that scroll, and the index's progress
with its export and import.

axe-core comes from node_modules (npm, pinned in package.json) and is injected by the tests only: the site never
ships it. Each test uses one page (each page boots Python), visiting the site's pages by its own links.
"""

import collections
import json

from conftest import ROOT, wait_until_ready
from grader.exercise import load_all
from page_helpers import EXERCISES, RUN_MS, import_file, set_code, wait_for_results

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
EXERCISE_IDS = sorted(path.parent.name for path in EXERCISES.glob("*/exercise.toml"))


def settle(page):
    """Let resize and mutation observers (scroll boxes, tabs) catch up with a change of size or content."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def axe_violations(page, where, contrast=True):
    """["<where>: <rule> at <elements>: <summary>"] for each WCAG 2.1 A/AA violation axe finds on the page.
    contrast=False leaves out color-contrast, most of axe's time (about 1 s of 1.2 s on an exercise page)."""
    found = page.evaluate("""([tags, contrast]) => axe.run(document, {
            runOnly: {type: 'tag', values: tags}, rules: {'color-contrast': {enabled: contrast}},
            resultTypes: ['violations']})
        .then(result => result.violations.map(v =>
            [v.id, v.nodes.slice(0, 4).map(n => n.target.join(' ')), v.nodes[0].failureSummary]))
    """, [WCAG_21_AA, contrast])
    return [f"{where}: {rule} at {targets}: {summary}" for rule, targets, summary in found]


def check_everywhere(page, where, phone_panes=("problem",), phone_contrast=True):
    """axe in light and dark, at desktop width and at phone width (on each of the given tabs of an exercise page;
    phone_panes=None for a page without tabs). Colours depend on the scheme, not the width: phone_contrast=False
    checks contrast at desktop width only (the phone's own widgets, the tabs, are the same on every exercise), and
    the phone's layout in the light scheme only (the rules other than contrast do not depend on colours)."""
    violations = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.set_viewport_size(DESKTOP)
        settle(page)
        violations += axe_violations(page, f"{where}, {scheme}, desktop")
        if scheme == "dark" and not phone_contrast:
            continue
        page.set_viewport_size(PHONE)
        for pane in phone_panes or [None]:
            if pane:
                page.click(f"#pane-tab-{pane}")
            settle(page)
            violations += axe_violations(page, f"{where}, {scheme}, phone" + (f", {pane} tab" if pane else ""),
                                         contrast=phone_contrast)
    page.set_viewport_size(DESKTOP)
    return violations


def follow_link(page, selector):
    """Click a link to an exercise (a client-side navigation) and wait until its editor is in."""
    exercise_id = page.locator(selector).first.get_attribute("href").rstrip("/").split("/")[-1]
    page.locator(selector).first.click()
    page.wait_for_function("id => document.body.dataset.exerciseId === id && window.editorView !== undefined",
                           arg=exercise_id)
    return exercise_id


def test_every_page_passes_axe_in_both_schemes_at_both_widths(page, base_url):
    page.goto(f"{base_url}/index.html")
    page.add_script_tag(path=str(AXE))  # stays: the site's links swap <main> and keep the document
    # A passing softmax: the pages that use it list it as the learner's, with its switch to the reference.
    page.evaluate("code => localStorage.setItem('mlex:passed:softmax', code)",
                  (EXERCISES / "softmax" / "solution.py").read_text())
    violations = check_everywhere(page, "index", phone_panes=None)
    visited = []
    for track in page.locator(".track").evaluate_all("tracks => tracks.map(t => t.id)"):
        page.locator(".site-name").click()
        page.wait_for_function("document.body.dataset.exerciseId === undefined")
        visited.append(follow_link(page, f"#{track} .exercise-link"))
        while True:
            first = len(visited) == 1
            violations += check_everywhere(page, visited[-1], ("problem", "code") if first else ("problem",),
                                           phone_contrast=first)
            if page.locator("a[rel=next]").count() == 0:
                break
            visited.append(follow_link(page, "a[rel=next]"))
    assert sorted(visited) == EXERCISE_IDS
    assert page.evaluate("typeof window.axe") == "object"  # one document all along

    # The results panel after a failing run, then after a passing one with the solution shown (left column).
    exercise = visited[-1]
    wait_until_ready(page)
    set_code(page, (EXERCISES / exercise / "starter.py").read_text())
    page.click("#run-button")
    wait_for_results(page)
    violations += check_everywhere(page, f"{exercise} after a failing run", ("code",), phone_contrast=False)
    set_code(page, (EXERCISES / exercise / "solution.py").read_text())
    page.click("#run-button")
    wait_for_results(page)
    page.locator("#solution").wait_for(state="visible", timeout=RUN_MS)
    violations += check_everywhere(page, f"{exercise} after a passing run", ("code", "problem"), phone_contrast=False)
    assert not violations, "\n".join(violations)


def scroll_box_state(page, selector):
    return page.evaluate("""selector => {
        const box = document.querySelector(selector);
        return {tabindex: box.getAttribute('tabindex'), more: box.dataset.more ?? null,
                mask: getComputedStyle(box).maskImage, scrollLeft: box.scrollLeft};
    }""", selector)


def test_phone_tabs_editor_wrapping_and_keyboard_exit(page, base_url):
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url}/exercises/sinusoidal_pe/")
    page.wait_for_function("window.editorView !== undefined")
    problem, code = page.locator("#pane-tab-problem"), page.locator("#pane-tab-code")

    # The tabs: Problem shown first, the editor one tap away and on the first screen.
    assert page.locator("[role=tablist]").is_visible()
    assert problem.get_attribute("aria-selected") == "true" and code.get_attribute("aria-selected") == "false"
    assert page.locator("#problem-pane").get_attribute("role") == "tabpanel"
    assert page.locator("#problem-pane").get_attribute("aria-labelledby") == "pane-tab-problem"
    assert page.locator("#editor").is_hidden()
    code.click()
    assert page.locator("#editor").is_visible() and page.locator("#statement").is_hidden()
    assert page.locator("#editor").bounding_box()["y"] < 300
    assert page.locator("#editor .cm-line").first.is_visible()  # CodeMirror drew its lines once shown

    # Keyboard: arrows, Home and End move between the tabs, and only the selected tab is in the tab order.
    code.focus()
    for key, selected in (("ArrowLeft", "problem"), ("ArrowRight", "code"), ("ArrowRight", "problem"),
                          ("End", "code"), ("Home", "problem")):
        page.keyboard.press(key)
        assert page.evaluate("document.activeElement.id") == f"pane-tab-{selected}", key
        assert page.locator(f"#pane-tab-{selected}").get_attribute("aria-selected") == "true"
        assert page.locator(f"#pane-tab-{selected}").get_attribute("tabindex") == "0"
    assert page.locator("#editor").is_hidden()

    # Long lines wrap: the starter's docstring is readable without scrolling sideways.
    code.click()
    scroller = page.evaluate("""() => { const s = document.querySelector('#editor .cm-scroller');
                                        return [s.scrollWidth, s.clientWidth]; }""")
    assert scroller[0] <= scroller[1], scroller
    assert "cm-lineWrapping" in page.locator("#editor .cm-content").get_attribute("class")

    # The editor says how the keyboard works in it, and Tab leaves it (until "Tab key indents" is on).
    content = page.locator("#editor .cm-content")
    hint = page.locator(f"#{content.get_attribute('aria-describedby')}")
    assert "Tab moves on" in hint.text_content()
    content.click()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "run-button"
    problem.click()

    page.set_viewport_size(DESKTOP)
    settle(page)

    # Wide screens: no tabs, both columns side by side.
    assert page.locator("[role=tablist]").is_hidden()
    assert page.locator("#editor").is_visible() and page.locator("#statement").is_visible()
    assert page.locator("#problem-pane").get_attribute("role") is None

    # The tabs work again on the next page, reached by the site's own (client-side) navigation, and back.
    page.set_viewport_size(PHONE)
    for selector in ("a[rel=next]", "a[rel=prev]"):
        follow_link(page, selector)
        assert page.locator("#pane-tab-problem").get_attribute("aria-selected") == "true"
        assert page.locator("#editor").is_hidden()
        page.locator("#pane-tab-code").click()
        assert page.locator("#editor").is_visible() and page.locator("#statement").is_hidden()
        page.locator("#pane-tab-problem").click()

    # Ctrl+Enter on the Problem tab runs the tests and shows the Code tab, where the results are.
    page.keyboard.press("Control+Enter")
    assert page.locator("#pane-tab-code").get_attribute("aria-selected") == "true"
    wait_for_results(page)
    assert page.locator("#results .summary").is_visible()


def test_a_formula_that_cannot_break_scrolls_with_a_scrollbar_and_a_cue(page, base_url):
    # Long formulas break across lines on a phone; a wide table of equations cannot, and scrolls in its box:
    # focusable, with a visible scrollbar and a "scroll" cue at the edge where more is hidden (not a fade).
    # The statements' formulas all fit a phone now; the derivation shown after a pass has wide tables.
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url}/exercises/transformer_block_backward/")
    page.evaluate("document.getElementById('how-it-works').hidden = false")  # as after a pass
    settle(page)
    formulas = "#statement .math-display, #how-it-works .math-display"
    wide = page.evaluate("""formulas => [...document.querySelectorAll(formulas)]
        .findIndex(box => box.scrollWidth > box.clientWidth + 1)""", formulas)
    assert wide >= 0, "no formula of transformer_block_backward overflows at 390 px: pick another"
    css = page.evaluate("([formulas, i]) => { const box = document.querySelectorAll(formulas)[i]; "
                        "box.id = 'wide-formula'; return '#wide-formula'; }", [formulas, wide])
    cue = "() => getComputedStyle(document.querySelector('#wide-formula'), '::after').content"
    state = scroll_box_state(page, css)
    assert state["tabindex"] == "0" and state["more"] == "right" and state["mask"] == "none", state
    assert page.evaluate(cue) == '"scroll →"'
    assert page.evaluate("getComputedStyle(document.querySelector('#wide-formula')).scrollbarWidth") == "thin"
    page.locator(css).focus()
    page.keyboard.press("ArrowRight")  # the arrow keys scroll the focused box
    page.wait_for_function("() => document.querySelector('#wide-formula').scrollLeft > 0")
    settle(page)
    assert scroll_box_state(page, css)["more"] == "left right"
    page.evaluate("document.querySelector('#wide-formula').scrollLeft = 1e6")  # at the right end
    settle(page)
    assert scroll_box_state(page, css)["more"] == "left" and page.evaluate(cue) == '"← scroll"'
    page.set_viewport_size(DESKTOP)  # at desktop width it fits: out of the tab order again, no cue
    settle(page)
    assert scroll_box_state(page, css)["tabindex"] is None and page.evaluate(cue) == "none"


def track_counts(page):
    return page.locator("#track-build-gpt .track-count").all_inner_texts()


def continue_text(page):
    return " ".join(page.locator("#continue-link").inner_text().split())


def stored(page):
    return page.evaluate("() => Object.fromEntries(Object.keys(localStorage).sort().map(k => [k, localStorage[k]]))")


def test_index_shows_progress_and_exports_and_imports_it(page, base_url, tmp_path):
    page.goto(f"{base_url}/index.html")
    exercises = load_all(EXERCISES)
    steps = collections.Counter(e.track for e in exercises)["build-gpt"]
    assert track_counts(page) == [f"{steps} exercises"]
    assert page.locator("#progress-summary").inner_text().startswith("Nothing started yet")
    assert continue_text(page) == "Start with step 1 Token embedding lookup"

    # What an exercise page saves (exercise-view.js), and state of other widgets (kept, whatever it is).
    saved = {"mlex:progress:sinusoidal_pe": "solved", "mlex:code:sinusoidal_pe": "import numpy as np\n# mine\n",
             "mlex:progress:softmax": "attempted", "mlex:code:softmax": "def softmax(x):\n    pass\n",
             "mlex:progress:token_embedding": "solved", "mlex:scratch:softmax": "print(softmax([1, 2]))"}
    page.evaluate("entries => Object.entries(entries).forEach(([k, v]) => localStorage.setItem(k, v))", saved)
    follow_link(page, "#track-build-gpt .exercise-link")  # and back by the site's own link: the index updates
    saved["mlex:last-visited"] = "token_embedding"  # the exercise page opened last, where Continue starts from
    page.locator(".site-name").click()
    page.wait_for_function("document.querySelector('.track-count')?.textContent.includes('solved')")
    assert track_counts(page) == [f"2 of {steps} solved · 1 attempted"]
    assert page.locator("#progress-summary").inner_text() == (
        f"You have solved 2 of {len(exercises)} exercises and attempted 1 more.")
    assert page.locator('[data-progress-for="sinusoidal_pe"]').inner_text() == "Solved"
    assert page.locator('[data-progress-for="softmax"]').inner_text() == "Attempted"
    assert page.locator(".exercise-item.is-solved").count() == 2
    # Solved rows keep their step number (beside a tick); Continue leads to the first step not solved.
    assert page.locator(".exercise-item.is-solved .step").all_inner_texts() == ["1", "2"]
    assert continue_text(page) == "Continue with step 3 Shifting positions with a rotation matrix"
    assert page.locator("#continue-link").get_attribute("href") == "exercises/relative_shift/"

    # Export: a JSON download of everything saved.
    with page.expect_download() as download:
        page.click("#export-progress")
    assert download.value.suggested_filename.startswith("ml-exercises-progress-")
    exported_text = (tmp_path / "progress.json")
    download.value.save_as(exported_text)
    exported = json.loads(exported_text.read_text())
    assert exported["format"] == "ml-exercises-progress" and exported["version"] == 1
    assert exported["entries"] == saved
    assert "Exported 7 saved values" in page.locator("#progress-message").inner_text()

    # Bad files: a message that says what is wrong, and nothing changes.
    page.evaluate("localStorage.setItem('mlex:code:gelu', 'here before')")
    before = stored(page)

    def progress_file(**fields):
        return json.dumps({"format": "ml-exercises-progress", "version": 1, "entries": {}, **fields})

    bad_files = {
        "notes.txt": ("this is not JSON", "not JSON"),
        "list.json": ("[1, 2]", "not a progress file of this site"),
        "other.json": (json.dumps({"format": "something-else", "version": 1, "entries": {}}),
                       "not a progress file of this site"),
        "newer.json": (progress_file(version=2), "made by a newer version"),
        "no-entries.json": (json.dumps({"format": "ml-exercises-progress", "version": 1}), 'no "entries"'),
        "entries-list.json": (progress_file(entries=[]), '"entries" should be an object'),
        "number.json": (progress_file(entries={"mlex:code:gelu": 3}), '"mlex:code:gelu" should be text, not a number'),
        "state.json": (progress_file(entries={"mlex:progress:gelu": "done"}), 'should be "solved" or "attempted"'),
        "foreign.json": (progress_file(entries={"theme": "dark"}), '"theme" is not one this site saves'),
        "choice.json": (progress_file(entries={"mlex:scope:softmax": "maybe"}), 'should be "reference" or "mine"'),
        "passed.json": (progress_file(entries={"mlex:passed:softmax": "#" * 1_000_001}),
                        'is not valid code (the code has 1,000,001 characters; code is at most 1,000,000)'),
        "huge.json": (b" " * (5 * 1024 * 1024 + 1), "at most 5.0 MB"),
    }
    for name, (content, expected) in bad_files.items():
        message, is_error = import_file(page, name, content)
        assert is_error and "Nothing was imported" in message and expected in message, (name, message)
        assert stored(page) == before, name
    assert track_counts(page) == [f"2 of {steps} solved · 1 attempted"]

    # A good file merges: its entries replace these, other entries stay, solved stays solved.
    page.evaluate("localStorage.setItem('mlex:progress:gelu', 'solved')")
    newer = {"mlex:progress:gelu": "attempted", "mlex:code:gelu": "def gelu(x):\n    return x\n",
             "mlex:progress:layer_norm": "attempted"}
    message, is_error = import_file(page, "other-machine.json", progress_file(entries=newer))
    assert not is_error and "code and progress for 2 exercises" in message, message
    after = stored(page)
    assert after["mlex:progress:gelu"] == "solved" and after["mlex:code:gelu"] == newer["mlex:code:gelu"]
    assert after["mlex:progress:layer_norm"] == "attempted" and after["mlex:code:softmax"] == saved["mlex:code:softmax"]
    assert track_counts(page) == [f"3 of {steps} solved · 2 attempted"]

    # Moving to a new machine: an empty browser imports the exported file and has everything back.
    page.evaluate("localStorage.clear()")
    message, is_error = import_file(page, "progress.json", exported_text.read_text())
    assert not is_error, message
    assert stored(page) == saved
    assert track_counts(page) == [f"2 of {steps} solved · 1 attempted"]
    assert page.locator('[data-progress-for="gelu"]').inner_text() == ""

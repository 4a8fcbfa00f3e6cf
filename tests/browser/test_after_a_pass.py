"""Issue 36 in Chromium: "How it works" after a pass (not before), the runs and hints the first pass took (kept
in progress, shown on the page and the index, carried by export and import), "Continue" to where the learner
left off, the "Unsolved only" filter, the capstone linked from the index and from the last part's success panels,
and the comparison with the reference side by side when the approach differs.

Set AFTER_A_PASS_SCREENSHOTS=DIR to also save the exercise page after a pass and the filtered index, at 1280 px
light and 390 px dark, to look at."""

import json
import os
from pathlib import Path

from conftest import wait_until_ready
from grader.exercise import load_all
from page_helpers import EXERCISES, LOOP_SOLUTION, SOLUTION, STARTER, import_file, run_and_wait, set_code, show_pane

CATALOGUE = load_all(EXERCISES)
STEPS = sorted((e for e in CATALOGUE if e.track == "build-gpt"), key=lambda e: e.step)
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def stored(page, key):
    return page.evaluate("key => localStorage.getItem(key)", key)


def shown_ids(page):
    return page.locator(".exercise-item:not([hidden]) .exercise-link").evaluate_all(
        "links => links.map(a => a.getAttribute('href').split('/').at(-2))")


def continue_href(page):
    return page.locator("#continue-link").get_attribute("href")


def test_how_it_works_and_the_runs_and_hints_of_the_first_pass(open_exercise, base_url, tmp_path):
    page = open_exercise()
    how = page.locator("#how-it-works")
    assert how.is_hidden() and page.locator(".jump-how-it-works").is_hidden()
    assert "One clock per column pair" in how.text_content()  # in the page, kept out of the way until a pass

    page.click("#hint-button")
    set_code(page, STARTER)
    assert run_and_wait(page) == "0/6 tests passed"
    assert how.is_hidden()
    set_code(page, SOLUTION)
    assert run_and_wait(page).startswith("6/6 tests passed")
    show_pane(page, "problem")
    assert how.is_visible() and page.locator("#how-it-works-title").inner_text() == "How it works"
    assert how.locator("math").count() > 3  # its formulas are rendered as the statement's
    assert page.locator(".jump-how-it-works").is_visible()
    assert page.locator(".success-attempts").inner_text() == "Solved after 2 runs, 1 hint."
    assert json.loads(stored(page, "mlex:solved-after:sinusoidal_pe")) == {"runs": 2, "hints": 1}
    save_screenshot(page, "exercise-after-a-pass-1280-light")
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme="dark")
    show_pane(page, "problem")
    how.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    save_screenshot(page, "exercise-how-it-works-390-dark")
    page.set_viewport_size(DESKTOP)
    page.emulate_media(color_scheme="light")

    # A reload shows it again; later runs and hints do not change what the first pass took.
    page.reload()
    wait_until_ready(page)
    assert how.is_visible()
    page.click("#hint-button")
    assert run_and_wait(page).startswith("6/6 tests passed")
    assert page.locator(".success-attempts").inner_text() == "Solved after 2 runs, 1 hint."

    # Another approach than the reference: the two side by side rather than an all red and green diff.
    set_code(page, LOOP_SOLUTION)
    assert run_and_wait(page).startswith("6/6 tests passed")
    page.click(".compare-button")
    page.locator(".diff-dialog .side-by-side").wait_for()
    assert page.locator(".side-by-side-column h3").all_inner_texts() == ["Yours", "Reference"]
    assert page.locator(".diff-legend").is_hidden()
    assert page.locator(".diff-verdict").inner_text().startswith("Your code takes another way than the reference")
    assert "\n".join(page.locator(".side-by-side-column").first.locator(".diff-code").all_text_contents()) \
        == LOOP_SOLUTION.rstrip("\n")
    page.keyboard.press("Escape")

    # The index says it under the badge; export and import carry it.
    page.goto(f"{base_url}/index.html")
    row = page.locator(".exercise-item", has=page.locator('[data-progress-for="sinusoidal_pe"]'))
    assert row.locator(".solved-after").inner_text() == "after 2 runs, 1 hint"
    assert row.locator(".progress").get_attribute("title") == "Solved after 2 runs, 1 hint"
    with page.expect_download() as download:
        page.click("#export-progress")
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    entries = json.loads(exported.read_text())["entries"]
    assert json.loads(entries["mlex:solved-after:sinusoidal_pe"]) == {"runs": 2, "hints": 1}
    assert entries["mlex:last-visited"] == "sinusoidal_pe"

    page.evaluate("localStorage.clear()")
    page.reload()
    assert row.locator(".solved-after").inner_text() == ""
    message, is_error = import_file(page, "progress.json", exported.read_bytes())
    assert not is_error, message
    assert row.locator(".solved-after").inner_text() == "after 2 runs, 1 hint"
    forged = {**entries, "mlex:solved-after:softmax": json.dumps({"runs": 0, "hints": -1})}
    file = json.dumps({"format": "ml-exercises-progress", "version": 1, "entries": forged})
    message, is_error = import_file(page, "forged.json", file)
    assert is_error and '"mlex:solved-after:softmax" is not valid (it should be {"runs"' in message


def test_continue_goes_where_the_learner_left_off(page, base_url):
    page.goto(f"{base_url}/index.html")
    ids = [step.id for step in STEPS]
    solve = "ids => ids.forEach(id => localStorage.setItem(`mlex:progress:${id}`, 'solved'))"
    page.evaluate(solve, ids[:5] + ids[19:25])
    page.reload()
    assert continue_href(page) == f"exercises/{ids[5]}/"  # nothing visited yet: the first step not solved

    # The last exercise page opened, not solved: Continue leads back to it.
    page.locator(f'a.exercise-link[href="exercises/{ids[30]}/"]').click()
    page.wait_for_function("id => document.body.dataset.exerciseId === id && window.editorView", arg=ids[30])
    page.locator(".site-name").click()
    page.wait_for_function("document.body.dataset.exerciseId === undefined")
    assert continue_href(page) == f"exercises/{ids[30]}/"
    assert " ".join(page.locator("#continue-link").inner_text().split()) == \
        f"Continue with step {STEPS[30].step} {STEPS[30].title}"

    # Visited last and solved since: the next step not solved after it; none after it: the first not solved.
    page.evaluate("id => localStorage.setItem('mlex:last-visited', id)", ids[19])
    page.reload()
    assert continue_href(page) == f"exercises/{ids[25]}/"
    page.evaluate(solve, ids[19:])
    page.reload()
    assert continue_href(page) == f"exercises/{ids[5]}/"
    page.evaluate("id => localStorage.setItem('mlex:last-visited', id)", "no_such_step")  # a stale id: ignored
    page.reload()
    assert continue_href(page) == f"exercises/{ids[5]}/"


def test_the_unsolved_filter_and_the_capstone_at_the_top(page, base_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url}/index.html")
    ids = [step.id for step in STEPS]
    solved = ids[:3] + ids[10:12]
    page.evaluate("ids => ids.forEach(id => localStorage.setItem(`mlex:progress:${id}`, 'solved'))", solved)
    page.evaluate("localStorage.setItem('mlex:solved-after:' + 'token_embedding', '{\"runs\": 3, \"hints\": 2}')")
    page.reload()
    page.check("#filter-unsolved")
    everything = len(CATALOGUE)  # the index lists every track
    in_track = lambda shown: [i for i in shown if i in ids]  # noqa: E731 (the build-gpt ones, in order)
    assert in_track(shown_ids(page)) == [i for i in ids if i not in solved]
    assert len(shown_ids(page)) == everything - len(solved)
    assert page.locator("#filter-count").inner_text() == \
        f"{everything - len(solved)} of {everything} exercises match"
    assert "unsolved=1" in page.url
    page.select_option("#filter-difficulty", "Easy")
    assert in_track(shown_ids(page)) == [s.id for s in STEPS if s.id not in solved and s.difficulty == "Easy"]
    page.select_option("#filter-difficulty", "")
    page.reload()  # kept in the URL
    assert page.locator("#filter-unsolved").is_checked() and len(shown_ids(page)) == everything - len(solved)
    page.uncheck("#filter-unsolved")
    assert len(shown_ids(page)) == everything and "unsolved" not in page.url

    # The capstone, at the top of the index as well as after the track.
    top = page.locator(".intro-capstone a")
    assert top.get_attribute("href") == "capstone/" and "Your GPT learns" in top.inner_text()
    page.check("#filter-unsolved")
    page.locator(".intro").scroll_into_view_if_needed()
    save_screenshot(page, "index-unsolved-1280-light")
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator(".intro-capstone a").is_visible() and page.locator("#filter-unsolved").is_visible()
    save_screenshot(page, "index-unsolved-390-dark")


def test_the_last_parts_success_panels_link_the_capstone(open_exercise):
    last_part = [step for step in STEPS if step.part == STEPS[-1].part]
    before = STEPS[STEPS.index(last_part[0]) - 1]
    page = open_exercise(before.id)
    assert "capstoneUrl" not in page.evaluate("({...document.body.dataset})")
    set_code(page, (EXERCISES / before.id / "solution.py").read_text())
    assert "passed" in run_and_wait(page)
    assert page.locator(".success-panel .to-capstone-link").count() == 0

    for step in last_part:  # reached in-page: Python stays warm
        page.evaluate("id => { const a = document.querySelector('#track-nav a[rel=next]'); a.click(); }", step.id)
        page.wait_for_function("id => document.body.dataset.exerciseId === id && window.editorView", arg=step.id)
        set_code(page, (EXERCISES / step.id / "solution.py").read_text())
        run_and_wait(page)
        panel = page.locator("#results .success-panel")
        if step is last_part[-1]:  # its next step is the capstone: no second link
            assert panel.locator(".next-step").inner_text() == "Capstone → Your GPT learns"
            assert panel.locator(".to-capstone-link").count() == 0
        else:
            assert panel.locator(".next-step").inner_text().startswith("Next step →")
            assert panel.locator(".to-capstone-link").inner_text() == "Capstone: Your GPT learns"
            assert panel.locator(".to-capstone-link").get_attribute("href").endswith("/capstone/")


def save_screenshot(page, name):
    folder = os.environ.get("AFTER_A_PASS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))

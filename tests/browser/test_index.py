"""The index in Chromium: search and filters (kept in the URL, tags as links), tracks and their parts as sections
with their steps, summaries, the Continue links (the index's and each track's), and no layout shift when the saved
progress is shown."""

from grader.exercise import load_all
from page_helpers import EXERCISES

EXERCISES_BY_ID = {exercise.id: exercise for exercise in load_all(EXERCISES)}
IN_INDEX_ORDER = sorted(EXERCISES_BY_ID.values(), key=lambda e: (e.track, e.step))  # tracks alphabetically
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def shown_ids(page):
    return page.locator(".exercise-item:not([hidden]) .exercise-link").evaluate_all(
        "links => links.map(a => a.getAttribute('href').split('/').at(-2))")


def count_text(page):
    return page.locator("#filter-count").inner_text()


def test_search_and_filters_narrow_the_list_and_live_in_the_url(page, base_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url}/index.html")
    everything = len(EXERCISES_BY_ID)
    assert len(shown_ids(page)) == everything and count_text(page) == f"{everything} exercises"

    # Search looks in titles, summaries and tags, word by word, as the learner types.
    page.fill("#filter-text", "nucleus")  # a word of one title only
    assert shown_ids(page) == ["top_p_filter"]
    assert count_text(page) == f"1 of {everything} exercises match"
    page.fill("#filter-text", "without overflow")  # words of softmax's summary, not of its title
    assert shown_ids(page) == ["softmax"]
    page.fill("#filter-text", "kv-cache")  # a tag
    assert set(shown_ids(page)) == {e.id for e in EXERCISES_BY_ID.values() if "kv-cache" in e.tags}
    assert "q=kv-cache" in page.url
    # Parts with no match are hidden with their heading.
    assert page.locator(".track-part:not([hidden]) .track-part-title").evaluate_all(
        r"titles => titles.map(h => h.textContent.replace(/\s+/g, ' ').trim())") == ["Inference steps 36–38"]

    # No match: a message and a way out.
    page.fill("#filter-text", "zzzz")
    assert shown_ids(page) == [] and page.locator("#no-match").is_visible()
    assert count_text(page) == f"0 of {everything} exercises match"
    page.click("#clear-filters")
    assert len(shown_ids(page)) == everything and page.locator("#no-match").is_hidden()
    assert page.evaluate("document.activeElement.id") == "filter-text"

    # Difficulty and tag together.
    page.select_option("#filter-difficulty", "Hard")
    page.select_option("#filter-tag", "backpropagation")
    expected = [e.id for e in IN_INDEX_ORDER if e.difficulty == "Hard" and "backpropagation" in e.tags]
    assert shown_ids(page) == expected and len(expected) >= 2
    assert "difficulty=Hard" in page.url and "tag=backpropagation" in page.url

    # The URL brings the same filters back (a reload, a shared link).
    page.reload()
    assert page.locator("#filter-difficulty").input_value() == "Hard"
    assert shown_ids(page) == expected


def test_tags_link_to_the_filtered_index_from_rows_and_from_exercise_pages(page, base_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url}/index.html")
    # A tag on a row filters the list in place.
    page.locator('.exercise-item a.tag[data-tag="attention"]').first.click()
    assert page.locator("#filter-tag").input_value() == "attention"
    assert set(shown_ids(page)) == {e.id for e in EXERCISES_BY_ID.values() if "attention" in e.tags}

    # A tag on an exercise page leads to the index filtered by it.
    page.goto(f"{base_url}/exercises/rope/")
    link = page.locator('.exercise-meta a.tag[data-tag="positional-encoding"]')
    assert link.get_attribute("href") == "../../index.html?tag=positional-encoding"
    link.click()
    page.wait_for_function("document.getElementById('exercise-filters') !== null")
    assert page.locator("#filter-tag").input_value() == "positional-encoding"
    assert set(shown_ids(page)) == {e.id for e in EXERCISES_BY_ID.values() if "positional-encoding" in e.tags}


def test_rows_parts_and_tags_read_well(page, base_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url}/index.html")
    # Every row says in one line what the exercise asks.
    assert page.locator(".exercise-blurb").all_inner_texts() == [e.summary for e in IN_INDEX_ORDER]
    # The parts are sections named by their heading, with their range of steps.
    parts = page.locator("section.track-part").evaluate_all("""sections => sections.map(s => [
        document.getElementById(s.getAttribute('aria-labelledby')).firstChild.textContent.trim(),
        s.querySelector('.part-steps').textContent])""")
    assert parts[0] == ["Forward pass", "steps 1–13"] and len(parts) >= 5
    # Tags on every other row ("numpy", "transformers") are in the filter, not on the rows.
    row_tags = set(page.locator(".exercise-item a.tag").all_inner_texts())
    filter_tags = set(page.locator("#filter-tag option").evaluate_all("os => os.map(o => o.value)")) - {""}
    assert {"numpy", "transformers"} <= filter_tags and not {"numpy", "transformers"} & row_tags
    assert row_tags < filter_tags


def cumulative_layout_shift(page, url):
    """Open `url` and return the layout shift score of its first second (no input, so every shift counts)."""
    page.add_init_script("""
        window.layoutShift = 0;
        new PerformanceObserver(list => list.getEntries().forEach(entry => {
            if (!entry.hadRecentInput) window.layoutShift += entry.value;
        })).observe({type: 'layout-shift', buffered: true});
    """)
    page.goto(url)
    page.wait_for_function("document.getElementById('continue-link').textContent.includes('Continue')")
    page.wait_for_timeout(1000)
    return page.evaluate("window.layoutShift")


def test_the_index_does_not_shift_when_the_progress_is_shown(page, base_url):
    page.goto(f"{base_url}/index.html")
    saved = {"token_embedding": "solved", "sinusoidal_pe": "solved", "relative_shift": "attempted",
             "softmax": "solved", "gpt_step": "attempted"}
    page.evaluate("saved => Object.entries(saved).forEach(([id, s]) => localStorage.setItem(`mlex:progress:${id}`, s))",
                  saved)
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        shift = cumulative_layout_shift(page, f"{base_url}/index.html")
        assert shift < 0.1, (size, shift)
    # What it shows: the first step not solved, and every solved step keeps its number.
    assert page.locator("#continue-link").get_attribute("href") == "exercises/relative_shift/"
    assert page.locator(".exercise-item.is-solved .step").all_inner_texts() == ["1", "2", "5"]


def test_start_then_continue_then_all_solved(page, base_url):
    page.goto(f"{base_url}/index.html")
    first = IN_INDEX_ORDER[0]
    link = page.locator("#continue-link")
    assert " ".join(link.inner_text().split()) == f"Start with step {first.step} {first.title}"
    page.evaluate("ids => ids.forEach(id => localStorage.setItem(`mlex:progress:${id}`, 'solved'))",
                  list(EXERCISES_BY_ID))
    page.reload()
    assert link.is_hidden()
    assert page.locator("#progress-summary").inner_text() == (
        f"You have solved {len(EXERCISES_BY_ID)} of {len(EXERCISES_BY_ID)} exercises.")
    page.evaluate("localStorage.setItem('mlex:progress:' + 'softmax', 'attempted')")
    page.reload()
    assert " ".join(link.inner_text().split()) == "Continue with step 5 Numerically stable softmax"
    link.click()
    page.wait_for_function("document.body.dataset.exerciseId === 'softmax'")


def test_each_track_has_its_own_progress_and_continue(page, base_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url}/index.html")
    tracks = {}
    for exercise in IN_INDEX_ORDER:
        tracks.setdefault(exercise.track, []).append(exercise)
    assert list(tracks) == ["build-gpt", "primitives"]
    assert page.locator("section.track h2").all_inner_texts() == ["Build GPT", "Primitives"]

    def header(slug):
        count = page.locator(f"#track-{slug} .track-count").inner_text()
        link = page.locator(f"#track-{slug} .track-continue")
        return count, " ".join(link.inner_text().split()) if link.is_visible() else None, link.get_attribute("href")

    # Nothing started: each track offers its own first step.
    for slug, steps in tracks.items():
        assert header(slug) == (f"{len(steps)} exercises", f"Start with step 1: {steps[0].title}",
                                f"exercises/{steps[0].id}/")

    # Progress in both tracks: each counts its own and continues at its own first step not solved.
    gpt, primitives = tracks["build-gpt"], tracks["primitives"]
    saved = {gpt[0].id: "solved", primitives[0].id: "solved", primitives[1].id: "attempted"}
    page.evaluate("saved => Object.entries(saved).forEach(([id, s]) => localStorage.setItem(`mlex:progress:${id}`, s))",
                  saved)
    page.reload()
    assert header("build-gpt") == (f"1 of {len(gpt)} solved", f"Continue with step 2: {gpt[1].title}",
                                   f"exercises/{gpt[1].id}/")
    assert header("primitives") == (f"1 of {len(primitives)} solved · 1 attempted",
                                    f"Continue with step 2: {primitives[1].title}", f"exercises/{primitives[1].id}/")
    assert page.locator("#progress-summary").inner_text() == (
        f"You have solved 2 of {len(IN_INDEX_ORDER)} exercises and attempted 1 more.")

    # A track solved to the end has no Continue; the other keeps its own.
    page.evaluate("ids => ids.forEach(id => localStorage.setItem(`mlex:progress:${id}`, 'solved'))",
                  [e.id for e in primitives])
    page.reload()
    assert header("primitives")[:2] == (f"{len(primitives)} of {len(primitives)} solved", None)
    assert header("build-gpt")[1] == f"Continue with step 2: {gpt[1].title}"
    page.locator("#track-build-gpt .track-continue").click()
    page.wait_for_function(f"document.body.dataset.exerciseId === '{gpt[1].id}'")

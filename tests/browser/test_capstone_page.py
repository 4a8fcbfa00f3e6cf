"""The capstone page in Chromium: with the references saved as the learner's passing code, the pretrained model
writes words at once through the learner's steps, training from scratch brings the loss below the unigram
baseline, each step's time is shown, the trained model samples, a reload restores the training and Resume goes on
from it, a broken step stops training with a message naming it (in the Learn card too), and axe finds nothing
(light and dark, desktop and phone).

One page does it all: each page boots Python, and training takes a while (it stops as soon as the loss is
below the baseline: under a hundred steps).
"""

import json
import re

from page_helpers import EXERCISES
from test_layout_and_access import AXE, check_everywhere

TRAIN_MS = 240_000  # under a hundred steps, at a step or two per second on a busy machine
LOAD_MS = 120_000  # Python, the steps and the text (the first session's boot)
# Passes nothing, but saved as "passing" it stands for a learner's step that breaks inside train_step.
BROKEN_ADAMW = """import numpy as np


def adamw_step(param, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01):
    return param.ravel()[:3], m, v
"""
# Never returns: the call over its time limit ends the session's worker, which says where it was.
LOOPING_SAMPLE_TOKEN = """import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    while True:
        pass
"""


def save_references_as_passed(page, base_url):
    """Every step the capstone needs, with its reference saved as the learner's passing code; returns their ids."""
    page.goto(f"{base_url}/capstone/capstone.json")
    ids = [used["exercise_id"] for used in json.loads(page.inner_text("body"))["uses"]]
    for exercise_id in ids:
        page.evaluate("([id, code]) => localStorage.setItem(`mlex:passed:${id}`, code)",
                      [exercise_id, (EXERCISES / exercise_id / "solution.py").read_text()])
    return ids


def figure(page, name):
    text = page.inner_text(f"#stat-{name}")
    return None if text == "–" else float(text)


def corpus_words(page, base_url):
    text = page.evaluate("url => fetch(url).then(r => r.text())", f"{base_url}/capstone/corpus.txt")
    return {word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)}


def switch_twice(page, exercise_id):
    """Use the reference for `exercise_id`, then the learner's code again: the model restarts with what is saved."""
    switch = page.locator(f"#in-scope li[data-exercise-id={exercise_id}] .scope-switch")
    switch.click()
    assert "is-reference" in page.locator(f"#in-scope li[data-exercise-id={exercise_id}]").get_attribute("class")
    switch.click()


def test_capstone_talks_trains_and_names_a_broken_step(page, isolated_base_url):
    base_url = isolated_base_url  # cross-origin isolated: a call over its limit is interrupted, and says where
    ids = save_references_as_passed(page, base_url)
    # The index's link to the capstone, as a learner follows it (the site's own navigation keeps the document).
    page.goto(f"{base_url}/index.html")
    page.add_script_tag(path=str(AXE))
    page.click(".capstone-card")
    page.wait_for_function("document.body.dataset.capstone === 'build-gpt'")
    page.wait_for_function("/your code/.test(document.getElementById('scope-counts').textContent)")  # mounted

    # Every step is listed as the learner's own.
    assert page.locator("#in-scope li").count() == len(ids)
    assert page.locator("#in-scope li.is-reference").count() == 0
    assert page.inner_text("#scope-counts") == f"{len(ids)} your code, 0 the references"

    # Talk first: the pretrained weights write (real) words at once.
    page.wait_for_function("/characters generated/.test(document.getElementById('talk-status').textContent)",
                           timeout=LOAD_MS)
    words = re.findall(r"[A-Za-z]{3,}", page.inner_text("#talk-output"))
    known = [word for word in words if word.lower() in corpus_words(page, base_url)]
    assert len(known) >= 10, page.inner_text("#talk-output")

    # Stop ends a long generation between two calls.
    page.fill("#talk-length", "5000")
    page.click("#generate-button")
    page.wait_for_function("document.getElementById('talk-output').textContent.length > 40")
    page.click("#generate-stop")
    page.wait_for_function("/Stopped after/.test(document.getElementById('talk-status').textContent)")
    assert len(page.inner_text("#talk-output")) < 5000
    assert page.locator("#generate-button").is_enabled()

    # Before training, the empty panels say when they fill.
    assert page.inner_text("#sample-after") == "Written every 100 training steps, the first after step 100."
    assert "before its first step" in page.inner_text("#sample-before")
    assert page.inner_text("#talk-model option[value=trained]") == "Yours: after 50 steps of training below"

    # Learn: from scratch, until the training loss (a running mean) is below the unigram baseline.
    page.click("#train-start")
    page.wait_for_function("""() => {
        const value = (name) => parseFloat(document.getElementById(`stat-${name}`).textContent);
        return value('loss') < value('unigram') && document.querySelectorAll('#loss-rows tr').length >= 2;
    }""", timeout=TRAIN_MS)
    page.click("#train-stop")
    page.wait_for_function("/^Stopped at step/.test(document.getElementById('learn-status').textContent)")
    steps = int(page.inner_text("#stat-step"))
    assert figure(page, "loss") < figure(page, "unigram")
    assert figure(page, "held-out") is not None
    assert page.inner_text("#sample-before").strip()
    assert "below the unigram baseline" in page.inner_text("#loss-chart-caption")
    assert page.locator("#loss-chart polyline.chart-train").count() == 1
    assert page.locator("#loss-chart line.chart-unigram").count() >= 1
    assert page.locator("#train-resume").is_visible()
    # Each step's own time per call (in the list, closed), and the slowest named in the list's summary.
    for exercise_id in ("train_step", "adamw_step", "gpt_loss_and_grads", "get_batch"):
        assert re.fullmatch(r"\d+(\.\d+)? ms a call, \d+ % of the time",
                            page.text_content(f"#in-scope li[data-exercise-id={exercise_id}] .scope-time"))
    assert re.fullmatch(r"; slowest: \w+ \(yours\), \d+ % of the time", page.inner_text("#scope-slowest"))
    assert re.fullmatch(r"Yours, trained \d+ steps", page.inner_text("#talk-model option[value=trained]"))
    assert re.fullmatch(r"Kept in this browser at step \d+: a reload continues from there\.",
                        page.inner_text("#learn-kept"))
    page.select_option("#talk-model", "trained")
    page.fill("#talk-length", "60")
    page.click("#generate-button")
    page.wait_for_function("document.getElementById('talk-status').textContent === '60 characters generated.'")

    # Resume continues from where training stopped.
    page.click("#train-resume")
    page.wait_for_function("step => parseInt(document.getElementById('stat-step').textContent) > step", arg=steps)
    page.click("#train-stop")
    page.wait_for_function("/^Stopped at step/.test(document.getElementById('learn-status').textContent)")
    page.mouse.move(0, 0)  # axe checks the page as it looks, not a button under the pointer
    violations = check_everywhere(page, "capstone after training", phone_panes=None)

    # A reload restores the training kept last (weights, optimiser and schedule, the curve); Resume goes on from it.
    kept_at = int(page.inner_text("#learn-kept").split("step ")[1].split(":")[0])
    held_out_rows = page.locator("#loss-rows tr").count()
    page.reload()
    page.add_script_tag(path=str(AXE))
    page.wait_for_function("/^Restored from this browser/.test(document.getElementById('learn-status').textContent)",
                           timeout=LOAD_MS)
    assert f"at step {kept_at} " in page.inner_text("#learn-status")
    assert int(page.inner_text("#stat-step")) == kept_at and page.locator("#loss-rows tr").count() == held_out_rows
    loss_kept = figure(page, "loss")
    assert page.inner_text("#train-start") == "Start over" and page.locator("#train-resume").is_visible()
    page.click("#train-resume")
    page.wait_for_function("step => parseInt(document.getElementById('stat-step').textContent) >= step + 20",
                           arg=kept_at, timeout=TRAIN_MS)
    page.click("#train-stop")
    page.wait_for_function("/^Stopped at step/.test(document.getElementById('learn-status').textContent)")
    assert figure(page, "loss") < figure(page, "unigram") and abs(figure(page, "loss") - loss_kept) < 0.5

    # A broken adamw_step, saved as the learner's: the switch restarts the model with it; training stops at once.
    page.evaluate("code => localStorage.setItem('mlex:passed:adamw_step', code)", BROKEN_ADAMW)
    page.click("#in-scope summary")
    switch_twice(page, "adamw_step")
    page.click("#train-start")
    error = page.locator("#capstone-error")
    error.wait_for(state="visible", timeout=LOAD_MS)
    assert error.locator(".capstone-error-title").inner_text() == "Stopped by your adamw_step (step 28)"
    assert "shape (3,)" in error.inner_text()
    assert "is-failing" in page.locator("#in-scope li[data-exercise-id=adamw_step]").get_attribute("class")
    # ... and in the Learn card, where the learner pressed Start.
    status = page.inner_text("#learn-status")
    assert re.match(r"Training stopped at step 0: your adamw_step \(step 28\) returned .*shape \(3,\)", status), status
    page.mouse.move(0, 0)
    violations += check_everywhere(page, "capstone with a step error", phone_panes=None, phone_contrast=False)
    assert not violations, "\n".join(violations)

    # A step that never returns: the call over its time limit ends the worker, saying where Python was.
    page.evaluate("code => localStorage.setItem('mlex:passed:sample_token', code)", LOOPING_SAMPLE_TOKEN)
    page.evaluate("document.body.dataset.callLimit = '2'")
    switch_twice(page, "sample_token")
    page.select_option("#talk-model", "pretrained")
    page.click("#generate-button")
    page.wait_for_function("/took more than 2 s/.test(document.getElementById('capstone-error').textContent)",
                           timeout=LOAD_MS)
    assert error.locator(".capstone-error-title").inner_text() == "Stopped by your sample_token (step 16)"
    assert re.search(r"Stopped at line [56] of your sample_token \(step 16\), in sample_token: (while True:|pass)",
                     error.inner_text()), error.inner_text()
    assert page.locator("#generate-button").is_enabled()

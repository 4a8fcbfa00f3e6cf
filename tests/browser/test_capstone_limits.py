"""The capstone page under honest bugs and forged answers, in Chromium: a diverging training (a learner's lr_at
returning step + 1) and losses of 4e9, 1e300 and infinity keep the chart's elements bounded and the page's main
thread free (no stall of 2 s); every forged or unusable answer of the session stops the model naming the step; a
switch while a session starts ends it, so the chosen code runs; the session's own large weights pass.

Each test opens one page (booting Python) and drives several cases in it through the steps' switches.
"""

import re

from page_helpers import EXERCISES
from test_capstone import LYING_INT_TOKEN, OBJECT_LOSS
from test_capstone_page import LOAD_MS, TRAIN_MS, save_references_as_passed, switch_twice
from test_worker_containment import MEASURE_STALLS

# The longest task the browser reports, and the most elements the chart ever had, since installed.
MEASURE_TASKS_AND_CHART = """() => {
  window.longestTask = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longestTask = Math.max(window.longestTask, entry.duration);
  }).observe({ type: "longtask" });
  window.mostChartElements = 0;
  const count = () => {
    window.mostChartElements = Math.max(window.mostChartElements,
      document.querySelectorAll("#loss-chart *").length);
  };
  new MutationObserver(count).observe(document.getElementById("loss-chart"), { childList: true });
}"""
MAX_CHART_ELEMENTS = 60  # axes with a handful of ticks each, the legend, the curves, a few held-out points
STALL_MS = 2000

DIVERGING_LR = "def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):\n    return step + 1\n"
# The reference's update, with losses of 4e9 and 1e300 and then, at the sixth call, infinity.
HUGE_LOSSES = """
_calls = [0]


def train_step(*args, **kwargs):
    params, opt, loss = _reference_train_step(*args, **kwargs)
    _calls[0] += 1
    return params, opt, float("inf") if _calls[0] >= 6 else 4e9 if _calls[0] % 2 else 1e300
"""
# Changes the session itself (found through gc) so that next_text answers nothing: the page's loop must not spin.
EMPTY_NEXT_TEXT = """
import gc


def sample_token(*args, **kwargs):
    for thing in gc.get_objects():
        if type(thing).__name__ == "Session":
            thing.next_text = lambda n_tokens: ""
    return _reference_sample_token(*args, **kwargs)
"""
# Posts a session-result without a call id to every likely session, as a step's code can try.
POSTING = """
import json

import js


def train_step(*args, **kwargs):
    for i in range(1, 20):
        forged = {"type": "session-result", "runId": f"session-{i}", "value": [{"step": 1000001, "loss": 1, "lr": 1}]}
        js.postMessage(js.JSON.parse(json.dumps(forged)))
    return _reference_train_step(*args, **kwargs)
"""
BROKEN_SAMPLE_TOKEN = """
def sample_token(*args, **kwargs):
    raise RuntimeError("this sample_token is broken")
"""
# 20,000 characters the text does not have, after its own: the model's weights take 5.2 MB.
PADDED_VOCABULARY = """
def char_tokenize(text):
    vocab, ids = _reference_char_tokenize(text)
    return list(vocab) + [chr(0x4E00 + i) for i in range(20_000)], ids
"""


def own(exercise_id, wrapper=""):
    """The learner's code for `exercise_id`: its reference, renamed when `wrapper` (defining the entry) calls it."""
    source = (EXERCISES / exercise_id / "solution.py").read_text()
    return source.replace(f"def {exercise_id}(", f"def _reference_{exercise_id}(") + wrapper if wrapper else source


def save_passed(page, steps):
    page.evaluate("""steps => {
        for (const [id, code] of Object.entries(steps)) localStorage.setItem(`mlex:passed:${id}`, code);
    }""", steps)


def open_capstone(page, base_url):
    page.goto(f"{base_url}/capstone/")
    page.wait_for_function("/your code/.test(document.getElementById('scope-counts').textContent)")
    page.evaluate(MEASURE_STALLS)
    page.evaluate(MEASURE_TASKS_AND_CHART)


def stopped_by(page, label, text):
    """Waits for the capstone's error; checks that it names `label` (its line in the list marked) and says `text`."""
    error = page.locator("#capstone-error")
    error.wait_for(state="visible", timeout=TRAIN_MS)
    message = error.inner_text()
    assert error.locator(".capstone-error-title").inner_text() == f"Stopped by {label}", message
    assert text in message, message
    failing = page.locator("#in-scope li.is-failing")
    assert failing.count() == 1 and label.split()[1] == failing.get_attribute("data-entry"), message


def generate_without_error(page):
    page.click("#generate-button")
    page.wait_for_function("document.getElementById('talk-status').textContent === '40 characters generated.'",
                           timeout=LOAD_MS)
    assert page.locator("#capstone-error").is_hidden()


def assert_responsive(page):
    assert page.evaluate("window.longestStall") < STALL_MS
    assert page.evaluate("window.longestTask") < STALL_MS
    assert page.evaluate("window.mostChartElements") <= MAX_CHART_ELEMENTS


def test_a_diverging_training_and_huge_losses_keep_the_chart_bounded(page, base_url):
    page.goto(f"{base_url}/index.html")
    save_references_as_passed(page, base_url)
    save_passed(page, {"lr_at": DIVERGING_LR})
    open_capstone(page, base_url)
    page.wait_for_function("/characters generated/.test(document.getElementById('talk-status').textContent)",
                           timeout=LOAD_MS)

    # lr_at gives step + 1: the loss climbs to thousands within ten steps, finite, so training goes on.
    page.click("#train-start")
    page.wait_for_function("parseInt(document.getElementById('stat-step').textContent) >= 15", timeout=TRAIN_MS)
    page.click("#train-stop")
    page.wait_for_function("/^Stopped at step/.test(document.getElementById('learn-status').textContent)")
    assert float(page.inner_text("#stat-loss")) > 100
    assert page.locator("#loss-chart .chart-grid").count() <= 12
    assert page.locator("#loss-chart .chart-off-scale").count() == 1  # the curve runs along the top edge
    assert page.locator("#capstone-error").is_hidden()
    assert_responsive(page)

    # train_step's losses: 4e9, 1e300, ..., then infinity, which stops the model naming train_step.
    save_passed(page, {"lr_at": own("lr_at"), "train_step": own("train_step", HUGE_LOSSES)})
    page.click("#in-scope summary")
    switch_twice(page, "lr_at")
    switch_twice(page, "train_step")
    page.click("#train-start")
    stopped_by(page, "your train_step (step 35)", "returned item 2 of its result with NaN or infinite values")
    assert re.fullmatch(r"\d\.\d{3}e\+(299|300)", page.inner_text("#stat-loss"))  # the running mean, written out
    assert "e+" in page.inner_text("#loss-chart-caption")
    assert page.locator("#loss-chart .chart-grid").count() <= 12
    assert_responsive(page)


def test_forged_and_unusable_session_answers_name_the_step(page, base_url):
    page.goto(f"{base_url}/index.html")
    # Only these steps are the learner's: a refused answer names the one among them that ran.
    save_passed(page, {"sample_token": own("sample_token", EMPTY_NEXT_TEXT), "train_step": own("train_step"),
                       "char_tokenize": own("char_tokenize")})
    open_capstone(page, base_url)

    # Talk writes at once: its second call's answer is empty, refused (the page's loop would never end).
    stopped_by(page, "your sample_token (step 16)",
               "the page refused a message from the model's Python (its answer is a string of 0 characters, "
               "not 8 characters)")
    assert page.evaluate("document.getElementById('in-scope').open")  # opened on the failing step
    page.click("#in-scope li[data-exercise-id=sample_token] .scope-switch")  # the reference from now on

    # A step that posts to the page itself: the message never arrives; the call fails naming the step.
    save_passed(page, {"train_step": own("train_step", POSTING)})
    switch_twice(page, "train_step")
    page.click("#train-start")
    stopped_by(page, "your train_step (step 35)", "posted a message to the page itself (js.postMessage)")
    assert page.inner_text("#stat-step") == "0"

    # A loss that is a 0-d object array whose __float__ is NaN.
    save_passed(page, {"train_step": own("train_step", OBJECT_LOSS)})
    switch_twice(page, "train_step")
    page.click("#train-start")
    stopped_by(page, "your train_step (step 35)", "returned an array of shape () for the loss, where a number")

    # An int subclass from sample_token: its value is used, and the model writes.
    save_passed(page, {"sample_token": own("sample_token", LYING_INT_TOKEN)})
    page.click("#in-scope li[data-exercise-id=sample_token] .scope-switch")  # the learner's again
    page.click("#in-scope li[data-exercise-id=train_step] .scope-switch")  # the reference
    page.fill("#talk-length", "40")
    generate_without_error(page)

    # Switching a broken step to the reference while Talk starts its session: the reference is used.
    save_passed(page, {"sample_token": own("sample_token", BROKEN_SAMPLE_TOKEN)})
    switch_twice(page, "sample_token")
    page.click("#generate-button")
    page.click("#in-scope li[data-exercise-id=sample_token] .scope-switch")
    page.wait_for_function("!document.getElementById('generate-button').disabled", timeout=LOAD_MS)
    generate_without_error(page)
    # And while Learn starts.
    page.click("#in-scope li[data-exercise-id=sample_token] .scope-switch")  # the broken one
    page.click("#train-start")
    page.click("#in-scope li[data-exercise-id=sample_token] .scope-switch")  # the reference
    page.wait_for_function("/steps changed/.test(document.getElementById('learn-status').textContent)",
                           timeout=LOAD_MS)
    assert page.locator("#capstone-error").is_hidden()

    # A vocabulary padded to 20,000 characters: the weights (5.2 MB) are kept at the first measurement.
    save_passed(page, {"char_tokenize": own("char_tokenize", PADDED_VOCABULARY)})
    switch_twice(page, "char_tokenize")
    page.evaluate("document.body.dataset.evalEvery = '2'")
    page.click("#train-start")
    page.wait_for_function("""() => document.querySelectorAll('#loss-rows tr').length >= 2
        || !document.getElementById('capstone-error').hidden""", timeout=TRAIN_MS)
    assert page.locator("#capstone-error").is_hidden(), page.inner_text("#capstone-error")
    page.wait_for_function("!document.querySelector('#talk-model option[value=trained]').disabled")
    page.click("#train-stop")
    assert_responsive(page)

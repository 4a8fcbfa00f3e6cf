"""Steps build on the learner's own earlier code: what passed at step 5 and step 8 is in scope at step 9."""

from conftest import wait_until_ready
from page_helpers import run_and_wait, set_code, set_time_limit, shown_results
from test_try_code import tried

SOFTMAX = """import numpy as np


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)
"""
CAUSAL_ATTENTION = """import numpy as np


def causal_attention(q, k, v):
    T = q.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(np.triu(np.ones((T, T), dtype=bool), k=1), -np.inf, scores)
    return softmax(scores, axis=-1) @ v
"""
# Passes step 8's tests, whose batches have a leading axis of 2, but refuses step 9's 3 or 4 heads.
NARROW_CAUSAL_ATTENTION = CAUSAL_ATTENTION.replace("""    T = q.shape[-2]
""", """    if q.ndim == 3 and q.shape[0] > 2:
        raise ValueError(f"a batch of {q.shape[0]}: only batches of up to 2 are supported")
    T = q.shape[-2]
""")
MULTI_HEAD_ATTENTION = """import numpy as np


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    heads = [(x @ W).reshape(T, n_heads, C // n_heads).transpose(1, 0, 2) for W in (W_q, W_k, W_v)]
    return causal_attention(*heads).transpose(1, 0, 2).reshape(T, C) @ W_o
"""


def go_to(page, exercise_id):
    """Follow a link to another exercise, as the learner does: the page is swapped in, Python stays."""
    page.evaluate("""id => {
        const link = Object.assign(document.createElement('a'), {href: `../${id}/`});
        document.querySelector('main').append(link);
        link.click();
    }""", exercise_id)
    page.wait_for_function("id => document.body.dataset.exerciseId === id && window.editorView !== undefined",
                           arg=exercise_id)


def in_scope(page):
    return page.locator("#in-scope li .scope-source").all_inner_texts()


def solve(page, source):
    set_code(page, source)
    assert "all good" in run_and_wait(page), shown_results(page)


def test_steps_use_the_learners_latest_passing_code(open_exercise):
    page = open_exercise("causal_attention")
    assert in_scope(page) == ["reference: step 5 softmax (not solved yet)"]
    assert page.locator("#in-scope .scope-switch").is_hidden()  # nothing of theirs to switch to

    go_to(page, "softmax")
    solve(page, SOFTMAX)
    go_to(page, "causal_attention")
    assert in_scope(page) == ["your step 5: softmax"]
    solve(page, CAUSAL_ATTENTION)
    go_to(page, "multi_head_attention")
    assert in_scope(page) == ["your step 5: softmax", "your step 8: causal_attention"]
    solve(page, MULTI_HEAD_ATTENTION)

    go_to(page, "causal_attention")
    solve(page, NARROW_CAUSAL_ATTENTION)  # the latest passing code is what later steps use
    go_to(page, "multi_head_attention")
    assert "all good" not in run_and_wait(page)
    messages = "\n".join(message for _, _, message in shown_results(page))
    assert "(raised in your causal_attention (step 8), which this step uses)" in messages
    assert "only batches of up to 2 are supported" in messages
    page.locator("#try-code summary").click()  # "Try your code" runs with the same steps in scope
    page.fill("#try-input", "causal_attention(*np.ones((3, 3, 2, 2)))")
    output = tried(page)
    assert "(raised in your causal_attention (step 8), which this step uses)" in output, output
    assert "  line 6 of your causal_attention (step 8), in causal_attention: raise ValueError(" in output, output

    switch = page.get_by_role("button", name="Use reference for causal_attention (step 8)")
    switch.click()
    assert in_scope(page) == ["your step 5: softmax",
                              "reference: step 8 causal_attention (chosen over yours)"]
    assert "all good" in run_and_wait(page), shown_results(page)
    page.get_by_role("button", name="Use mine for causal_attention (step 8)").click()  # remembered either way
    assert in_scope(page)[1] == "your step 8: causal_attention"


def test_a_time_limit_names_the_earlier_step_where_the_code_was(page, isolated_base_url):
    """Only a cross-origin isolated page can interrupt Python and ask where it was."""
    page.goto(f"{isolated_base_url}/exercises/multi_head_attention/")
    wait_until_ready(page)
    looping = "def causal_attention(q, k, v):\n    while q.shape[0] == 7:\n        pass\n    return v\n"
    page.evaluate("code => localStorage.setItem('mlex:passed:causal_attention', code)", looping)
    set_code(page, "import numpy as np\n")
    set_time_limit(page, 1)
    page.locator("#try-code summary").click()
    page.fill("#try-input", "causal_attention(np.ones((7, 2, 2)), 0, 0)")
    assert tried(page).endswith("\nStopped at line 2 of your causal_attention (step 8), in causal_attention: "
                                "while q.shape[0] == 7:")

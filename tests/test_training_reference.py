"""The references' train_step trains a tiny GPT: its loss falls below the unigram baseline.

The references of step 31 (char_tokenize), step 32 (get_batch), step 30 (lr_at) and step 35
(train_step, with the references of the steps it uses in scope) run as offline grading runs them. A
model that only learned how often each character occurs would score the entropy of the character
frequencies; a model that uses the context must do better, on the batches it trains on.
"""

import math
from collections import Counter

import numpy as np

from grader.exercise import load_exercise
from grader.track import reference_function

TEXT = ("the cat sat on the mat. the dog sat on the log. a cat and a dog sat on a mat and a log. " * 4).strip()


def reference(exercise_id):
    """The reference entry function of an exercise, the references of what it uses in scope."""
    return reference_function(load_exercise(exercise_id))


def unigram_entropy(text):
    """The cross-entropy (in nats) of always predicting the character frequencies of text."""
    counts = Counter(text)
    return -sum(n / len(text) * math.log(n / len(text)) for n in counts.values())


def tiny_gpt(rng, V, C, F, n_blocks):
    normal = lambda *shape: rng.normal(0.0, 0.2, shape)
    blocks = [{"W_q": normal(C, C), "W_k": normal(C, C), "W_v": normal(C, C), "W_o": normal(C, C),
               "ln1_g": np.ones(C), "ln1_b": np.zeros(C), "ln2_g": np.ones(C), "ln2_b": np.zeros(C),
               "W1": normal(C, F), "b1": np.zeros(F), "W2": normal(F, C), "b2": np.zeros(C)} for _ in range(n_blocks)]
    return {"W_E": normal(V, C), "blocks": blocks, "lnf_g": np.ones(C), "lnf_b": np.zeros(C)}


def test_train_step_learns_below_the_unigram_baseline():
    char_tokenize, get_batch = reference("char_tokenize"), reference("get_batch")
    lr_at, train_step = reference("lr_at"), reference("train_step")
    vocab, ids = char_tokenize(TEXT)
    baseline = unigram_entropy(TEXT)
    rng = np.random.default_rng(0)
    p, opt = tiny_gpt(rng, len(vocab), C=16, F=32, n_blocks=1), None
    steps, losses = 300, []
    for step in range(steps):
        x, y = get_batch(ids, 8, 4, rng)
        lr = lr_at(step, 1e-2, 1e-3, 20, steps)
        p, opt, loss = train_step(p, opt, x, y, 2, lr, weight_decay=0.01, max_norm=1.0)
        losses.append(loss)
    assert opt["t"] == steps
    first, last = float(np.mean(losses[:10])), float(np.mean(losses[-20:]))
    print(f"unigram baseline {baseline:.3f} nats; loss {first:.3f} over the first 10 steps, "
          f"{last:.3f} over the last 20")
    assert first > baseline            # a random model starts above the baseline
    assert last < 0.5 * baseline, f"loss {last:.3f} after {steps} steps, unigram baseline {baseline:.3f}"

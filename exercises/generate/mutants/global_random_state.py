# Ignores rng and draws with a generator it creates itself at every step.
# expect: two calls with generators in the same state must return the same sequence
import numpy as np


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    sequence = [int(i) for i in ids]
    for _ in range(n_new):
        logits = gpt_logits(sequence, p, n_heads)
        sequence.append(sample_token(logits[-1], np.random.default_rng(), temperature, top_k))
    return sequence

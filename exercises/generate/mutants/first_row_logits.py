# Samples from logits[0] (the prediction after the first token) instead of logits[-1].
# expect: looks like the context never grew
import numpy as np


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    sequence = [int(i) for i in ids]
    for _ in range(n_new):
        logits = gpt_logits(sequence, p, n_heads)
        sequence.append(sample_token(logits[0], rng, temperature, top_k))
    return sequence

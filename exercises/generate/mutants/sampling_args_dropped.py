# Calls sample_token without temperature and top_k, so the defaults are always used.
# expect: looks like top_k was not passed on to sample_token
import numpy as np


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    sequence = [int(i) for i in ids]
    for _ in range(n_new):
        logits = gpt_logits(sequence, p, n_heads)
        sequence.append(sample_token(logits[-1], rng))
    return sequence

# Feeds only the last token to gpt_logits instead of the whole sequence so far.
# expect: looks like only the last token was fed to gpt_logits
import numpy as np


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    sequence = [int(i) for i in ids]
    for _ in range(n_new):
        logits = gpt_logits(sequence[-1:], p, n_heads)
        sequence.append(sample_token(logits[-1], rng, temperature, top_k))
    return sequence

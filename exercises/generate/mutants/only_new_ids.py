# Returns only the new ids, without the prompt in front.
# expect: looks like only the new ids
import numpy as np


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    sequence = [int(i) for i in ids]
    new = []
    for _ in range(n_new):
        logits = gpt_logits(sequence, p, n_heads)
        token = sample_token(logits[-1], rng, temperature, top_k)
        sequence.append(token)
        new.append(token)
    return new

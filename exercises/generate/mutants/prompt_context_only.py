# Runs the model on the prompt at every step: the context never grows.
# expect: looks like the context never grew
import numpy as np


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    prompt = [int(i) for i in ids]
    out = list(prompt)
    for _ in range(n_new):
        logits = gpt_logits(prompt, p, n_heads)
        out.append(sample_token(logits[-1], rng, temperature, top_k))
    return out

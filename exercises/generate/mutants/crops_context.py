# Crops the context to the last 16 tokens, nanoGPT's idx[:, -block_size:] habit, although this model has no block size.
# expect: looks like the context was cropped to the last 16 tokens
import numpy as np

BLOCK_SIZE = 16


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    sequence = [int(i) for i in ids]
    for _ in range(n_new):
        logits = gpt_logits(sequence[-BLOCK_SIZE:], p, n_heads)
        sequence.append(sample_token(logits[-1], rng, temperature, top_k))
    return sequence

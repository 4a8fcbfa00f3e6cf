import numpy as np


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    """The prompt followed by n_new sampled token ids, as a Python list of ints."""
    sequence = [int(i) for i in ids]                     # Python ints, a new list
    for _ in range(n_new):
        logits = gpt_logits(sequence, p, n_heads)        # the whole sequence is the context
        sequence.append(sample_token(logits[-1], rng, temperature, top_k))  # last position predicts next
    return sequence

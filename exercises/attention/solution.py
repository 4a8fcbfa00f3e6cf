import numpy as np


def attention(q, k, v):
    """Scaled dot-product attention over the last two axes: softmax(q @ k^T / sqrt(d)) @ v."""
    d = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)           # (..., Tq, Tk)
    weights = softmax(scores, axis=-1)                          # step 5: each row (one query) sums to 1
    return weights @ v                                          # (..., Tq, dv)

# Returns the attention weights softmax(q @ k^T / sqrt(d)) and never multiplies them by v.
# expect: looks like the attention weights
import numpy as np


def attention(q, k, v):
    d = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)

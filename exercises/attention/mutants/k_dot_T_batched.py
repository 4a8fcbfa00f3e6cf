# Transposes k with k.T, which is right for 2-D k but reverses every axis of a batched k.
# expect: With leading batch axes, transpose only the last two axes of k
import numpy as np


def attention(q, k, v):
    d = q.shape[-1]
    scores = q @ k.T / np.sqrt(d)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

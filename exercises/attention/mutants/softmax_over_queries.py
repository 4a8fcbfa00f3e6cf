# Takes the softmax over axis -2 (the queries, so columns sum to 1) instead of over the keys.
# expect: looks like the softmax ran over the wrong axis
import numpy as np


def attention(q, k, v):
    d = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-2, keepdims=True))
    weights /= weights.sum(axis=-2, keepdims=True)
    return weights @ v

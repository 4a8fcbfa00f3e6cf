# Forgets the 1/sqrt(d) scaling: softmax(q @ k^T) @ v.
# expect: looks like the scores were not scaled
import numpy as np


def attention(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

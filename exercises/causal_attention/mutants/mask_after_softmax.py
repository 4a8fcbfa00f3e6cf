# Applies the mask to the weights after the softmax, without renormalising: rows sum to less than 1.
# expect: looks like the mask was applied after the softmax
import numpy as np


def causal_attention(q, k, v):
    T = q.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    weights = weights * np.tril(np.ones((T, T)))
    return weights @ v

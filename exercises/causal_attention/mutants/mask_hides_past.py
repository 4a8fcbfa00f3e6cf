# Uses np.tril(k=-1) as the set of masked positions: hides the past (j < i) and lets query i see the future.
# expect: looks like the mask hides the past instead of the future
import numpy as np


def causal_attention(q, k, v):
    T = q.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores[..., np.tril(np.ones((T, T), dtype=bool), k=-1)] = -np.inf
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

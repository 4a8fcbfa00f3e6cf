# Multiplies the scores by a 0/1 lower-triangular mask: masked scores become 0, not -inf.
# expect: looks like no causal mask was applied
import numpy as np


def causal_attention(q, k, v):
    T = q.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores * np.tril(np.ones((T, T)))
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

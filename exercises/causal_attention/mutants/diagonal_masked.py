# Masks j >= i (np.triu with k=0) instead of j > i: the diagonal is masked, so row 0 is all -inf (NaN).
# expect: looks like the diagonal was masked too
import numpy as np


def causal_attention(q, k, v):
    T = q.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(np.triu(np.ones((T, T), dtype=bool)), -np.inf, scores)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

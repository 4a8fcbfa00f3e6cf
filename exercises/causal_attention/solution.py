import numpy as np


def causal_attention(q, k, v):
    """Causal scaled dot-product attention: query i only sees keys j <= i."""
    T, d = q.shape[-2], q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)           # (..., T, T)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)          # True where j > i
    scores = np.where(future, -np.inf, scores)                  # masked before the softmax
    scores = scores - scores.max(axis=-1, keepdims=True)        # the diagonal is never masked: max is finite
    weights = np.exp(scores)                                    # exp(-inf) = 0 exactly
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v                                          # (..., T, dv)

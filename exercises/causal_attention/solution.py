import numpy as np


def causal_attention(q, k, v):
    """Causal scaled dot-product attention: query i only sees keys j <= i."""
    T, d = q.shape[-2], q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)           # (..., T, T)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)          # True where j > i
    scores = np.where(future, -np.inf, scores)                  # masked before the softmax
    weights = softmax(scores, axis=-1)                          # step 5: exp(-inf) = 0 exactly; the diagonal
    return weights @ v                                          # is never masked, so every row has a max

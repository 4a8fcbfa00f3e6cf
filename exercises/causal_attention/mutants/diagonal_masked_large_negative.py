# Masks j >= i with -1e9: the diagonal is masked, row 0 has every score -1e9 and becomes uniform.
# expect: looks like the diagonal was masked too
import numpy as np


def causal_attention(q, k, v):
    T = q.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    mask = np.tril(np.ones((T, T)), k=-1)          # 1 where j < i: the diagonal is left out
    scores = np.where(mask == 1, scores, -1e9)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

# Builds the mask with T = q.shape[0]: right for 2-D q, but for batched q that is the batch size.
# expect: use T = q.shape[-2] for the (T, T) mask
import numpy as np


def causal_attention(q, k, v):
    T = q.shape[0]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    mask = np.triu(np.full((T, T), -np.inf), k=1)
    scores = scores + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

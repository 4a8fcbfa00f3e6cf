# Forgets the causal mask: plain attention, every query sees every key, the future included.
# expect: looks like no causal mask was applied
import numpy as np


def causal_attention(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

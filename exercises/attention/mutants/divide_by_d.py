# Divides the scores by d instead of sqrt(d).
# expect: looks like the scores were divided by d instead of sqrt(d)
import numpy as np


def attention(q, k, v):
    d = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / d
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v

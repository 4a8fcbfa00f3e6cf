# Reads d as q.shape[1]: right for 2-D q, but for batched q of shape (B, T, d) it is T.
# expect: looks like the scores were divided by sqrt of the number of queries Tq
import math

import numpy as np


def attention(q, k, v):
    d = q.shape[1]
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) / math.sqrt(d)
    weights = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ v

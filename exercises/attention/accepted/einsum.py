# Writes both products with np.einsum, and scales the queries before the product instead of the scores.
import numpy as np


def attention(q, k, v):
    scores = np.einsum("...qd,...kd->...qk", q / np.sqrt(q.shape[-1]), k)
    return np.einsum("...qk,...kv->...qv", softmax(scores, axis=-1), v)

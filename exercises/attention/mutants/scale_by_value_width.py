# Scales by sqrt(dv), the width of v, instead of sqrt(d), the width of q and k.
# expect: looks like the scores were divided by sqrt(dv)
import numpy as np


def attention(q, k, v):
    scores = np.einsum("...id,...jd->...ij", q, k) / np.sqrt(v.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return np.einsum("...ij,...jc->...ic", weights, v)

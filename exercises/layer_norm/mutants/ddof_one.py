# Uses the unbiased variance (ddof=1, dividing by C - 1) instead of the biased one layer norm uses.
# expect: looks like the unbiased variance
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta

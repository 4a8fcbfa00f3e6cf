# Uses -1e9 as the masked value instead of -inf.
# expect: looks like a large negative number stands in for -inf
import numpy as np


def alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    distance = pos[:, None] - pos[None, :]
    bias = -slopes[:, None, None] * distance
    bias[:, distance < 0] = -1e9
    return bias

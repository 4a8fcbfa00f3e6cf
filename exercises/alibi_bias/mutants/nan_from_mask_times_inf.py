# Multiplies a 0/1 mask by -inf, so 0 * -inf gives NaN on and below the diagonal.
# expect: NaN usually comes from 0 * inf
import numpy as np


def alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    distance = np.maximum(pos[:, None] - pos[None, :], 0)
    future = np.triu(np.ones((T, T)), k=1)
    return -slopes[:, None, None] * distance + future * -np.inf

# Hard-codes the slopes of 8 heads (1/2, 1/4, 1/8, ...) whatever n_heads is.
# expect: looks like the slopes 1/2
import numpy as np


def alibi_bias(n_heads, T):
    slopes = 0.5 ** np.arange(1, n_heads + 1)
    pos = np.arange(T)
    distance = pos[:, None] - pos[None, :]
    bias = -slopes[:, None, None] * distance
    bias[:, distance < 0] = -np.inf
    return bias

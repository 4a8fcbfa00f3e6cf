# Masks the diagonal too (j >= i), so a query cannot attend to its own position.
# expect: looks like the diagonal is masked too
import numpy as np


def alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    distance = pos[:, None] - pos[None, :]
    bias = -slopes[:, None, None] * distance.astype(float)
    bias[:, distance <= 0] = -np.inf
    return bias

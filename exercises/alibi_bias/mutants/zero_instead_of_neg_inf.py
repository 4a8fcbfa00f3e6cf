# Leaves the masked entries at 0 instead of -inf (np.tril of the bias zeroes the upper triangle).
# expect: looks like the masked entries are 0 instead of -inf
import numpy as np


def alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    distance = pos[:, None] - pos[None, :]
    return np.tril(-slopes[:, None, None] * distance)

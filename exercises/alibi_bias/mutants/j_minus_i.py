# Uses the distance j - i instead of i - j: -m * (j - i) is positive below the diagonal.
# expect: looks like the sign is flipped
import numpy as np


def alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    distance = pos[None, :] - pos[:, None]                 # j - i
    mask = np.triu(np.ones((T, T), dtype=bool), k=1)
    bias = -slopes[:, None, None] * distance
    return np.where(mask, -np.inf, bias)

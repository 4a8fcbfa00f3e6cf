# Masks the lower triangle (j < i) with np.tril instead of the upper one, with the bias -m*(j - i) above the diagonal.
# expect: looks like the mask is on the wrong triangle
import numpy as np


def alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    distance = np.abs(pos[:, None] - pos[None, :])
    mask = np.tril(np.ones((T, T), dtype=bool), k=-1)
    bias = -slopes[:, None, None] * distance
    return np.where(mask, -np.inf, bias)

# Slope exponent uses h instead of h + 1: m_h = 2**(-8*h/n_heads), so head 0 gets slope 1.
# expect: looks like the slope exponent uses h instead of h + 1
import numpy as np


def alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(n_heads) / n_heads)
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    bias = -slopes[:, None, None] * (i - j)
    bias[:, j > i] = -np.inf
    return bias

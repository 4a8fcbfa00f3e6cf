import numpy as np


def alibi_bias(n_heads, T):
    """ALiBi attention bias of shape (n_heads, T, T): -m_h * (i - j) for j <= i, -inf for j > i."""
    heads = np.arange(1, n_heads + 1, dtype=np.float64)          # h + 1 for h = 0 .. n_heads-1
    slopes = 2.0 ** (-8.0 * heads / n_heads)                     # (n_heads,): m_0 > m_1 > ... > 0
    i = np.arange(T)[:, None]                                    # query positions, down the rows
    j = np.arange(T)[None, :]                                    # key positions, across the columns
    bias = slopes[:, None, None] * (j - i)                       # -m * (i - j): 0 on the diagonal, < 0 below
    bias[:, j > i] = -np.inf                                     # keys in the future are masked out
    return bias

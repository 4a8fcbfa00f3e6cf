import numpy as np


def alibi_bias(n_heads, T):
    """ALiBi attention bias, with the causal mask built in.

    Args:
        n_heads: number of attention heads; head h = 0 .. n_heads-1 has slope m_h = 2 ** (-8 * (h + 1) / n_heads).
        T: sequence length; i = 0 .. T-1 indexes queries (rows), j = 0 .. T-1 keys (columns).

    Returns:
        A float array `bias` of shape (n_heads, T, T) with
            bias[h, i, j] = -m_h * (i - j)   if j <= i
            bias[h, i, j] = -inf             if j > i   (future keys are masked out)
    """
    # TODO: compute the slopes, the distances i - j, then mask the entries above the diagonal.
    raise NotImplementedError

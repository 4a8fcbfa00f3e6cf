import numpy as np


def relative_shift(k, C):
    """Block-diagonal (C, C) matrix M_k with M_k @ PE[t] == PE[t + k] for every t."""
    idx = np.arange(0, C, 2)                        # first column of each pair: 0, 2, 4, ...
    frequencies = 1.0 / 10000.0 ** (idx / C)        # w_i
    cos_kw = np.cos(k * frequencies)
    sin_kw = np.sin(k * frequencies)

    # sin((t+k)w) =  cos(kw) * sin(tw) + sin(kw) * cos(tw)
    # cos((t+k)w) = -sin(kw) * sin(tw) + cos(kw) * cos(tw)
    M = np.zeros((C, C), dtype=np.float64)
    M[idx, idx] = cos_kw
    M[idx, idx + 1] = sin_kw
    M[idx + 1, idx] = -sin_kw
    M[idx + 1, idx + 1] = cos_kw
    return M

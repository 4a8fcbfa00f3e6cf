import numpy as np


def relative_shift(delta, C):
    """Block-diagonal (C, C) matrix M_delta with M_delta @ PE[t] == PE[t + delta] for every t."""
    idx = np.arange(0, C, 2)                        # first column of each pair: 0, 2, 4, ...
    frequencies = 1.0 / 10000.0 ** (idx / C)        # omega_i
    cos_shift = np.cos(delta * frequencies)
    sin_shift = np.sin(delta * frequencies)

    # sin((t+delta) omega_i) =  cos(delta omega_i) * sin(t omega_i) + sin(delta omega_i) * cos(t omega_i)
    # cos((t+delta) omega_i) = -sin(delta omega_i) * sin(t omega_i) + cos(delta omega_i) * cos(t omega_i)
    M = np.zeros((C, C), dtype=np.float64)
    M[idx, idx] = cos_shift
    M[idx, idx + 1] = sin_shift
    M[idx + 1, idx] = -sin_shift
    M[idx + 1, idx + 1] = cos_shift
    return M

# Forgets to multiply by delta: every block rotates by omega_i, i.e. it always returns M_1.
# expect: looks like delta is not used
import numpy as np


def relative_shift(delta, C):
    idx = np.arange(0, C, 2)
    angle = 1.0 / 10000.0 ** (idx / C)
    M = np.zeros((C, C))
    M[idx, idx] = np.cos(angle)
    M[idx, idx + 1] = np.sin(angle)
    M[idx + 1, idx] = -np.sin(angle)
    M[idx + 1, idx + 1] = np.cos(angle)
    return M

# Slice assignment M[0::2, 0::2] = ... fills whole (C/2, C/2) grids, so the matrix is dense, not block diagonal.
# expect: looks like values were written into whole
import numpy as np


def relative_shift(delta, C):
    angle = delta / 10000.0 ** (np.arange(0, C, 2) / C)
    M = np.zeros((C, C))
    M[0::2, 0::2] = np.cos(angle)
    M[0::2, 1::2] = np.sin(angle)
    M[1::2, 0::2] = -np.sin(angle)
    M[1::2, 1::2] = np.cos(angle)
    return M

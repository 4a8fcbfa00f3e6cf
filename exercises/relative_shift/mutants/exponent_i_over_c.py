# Frequencies use i/C instead of 2i/C, so they do not match the encoding being shifted.
# expect: looks like the frequencies use i/C instead of 2i/C
import numpy as np


def relative_shift(delta, C):
    idx = np.arange(0, C, 2)
    angle = delta / 10000.0 ** (np.arange(C // 2) / C)
    M = np.zeros((C, C))
    M[idx, idx] = np.cos(angle)
    M[idx, idx + 1] = np.sin(angle)
    M[idx + 1, idx] = -np.sin(angle)
    M[idx + 1, idx + 1] = np.cos(angle)
    return M

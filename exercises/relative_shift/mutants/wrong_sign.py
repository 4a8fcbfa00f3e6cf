# Cosine addition formula with + instead of -: the block is [[cos, sin], [sin, cos]].
# expect: looks like a sign is missing
import numpy as np


def relative_shift(delta, C):
    idx = np.arange(0, C, 2)
    angle = delta / 10000.0 ** (idx / C)
    M = np.zeros((C, C))
    M[idx, idx] = np.cos(angle)
    M[idx, idx + 1] = np.sin(angle)
    M[idx + 1, idx] = np.sin(angle)
    M[idx + 1, idx + 1] = np.cos(angle)
    return M

# Uses the textbook rotation block [[cos, -sin], [sin, cos]], which is the transpose: it shifts by -delta.
# expect: looks like every 2x2 block is transposed
import numpy as np


def relative_shift(delta, C):
    idx = np.arange(0, C, 2)
    angle = delta / 10000.0 ** (idx / C)
    M = np.zeros((C, C))
    M[idx, idx] = np.cos(angle)
    M[idx, idx + 1] = -np.sin(angle)
    M[idx + 1, idx] = np.sin(angle)
    M[idx + 1, idx + 1] = np.cos(angle)
    return M

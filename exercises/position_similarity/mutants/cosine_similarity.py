# Normalises the rows first (cosine similarity), so the diagonal is 1 instead of C/2.
# expect: looks like the rows were normalised
import numpy as np


def position_similarity(T, C):
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    pe = np.empty((T, C))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    pe = pe / np.linalg.norm(pe, axis=1, keepdims=True)
    return pe @ pe.T

# Closed form summed over all C columns instead of the C/2 pairs, so every pair is counted twice.
# expect: looks like every pair was counted twice
import numpy as np


def position_similarity(T, C):
    offsets = np.arange(T)[:, None] - np.arange(T)[None, :]
    frequencies = 1.0 / 10000.0 ** (2 * (np.arange(C) // 2) / C)
    return np.cos(offsets[:, :, None] * frequencies).sum(axis=-1)

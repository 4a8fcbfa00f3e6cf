# Puts cos in the even columns and sin in the odd columns.
# expect: looks like sin and cos are swapped
import numpy as np


def sinusoidal_pe(T, C):
    positions = np.arange(T, dtype=np.float64)[:, None]
    frequencies = 1.0 / 10000.0 ** (np.arange(0, C, 2) / C)
    angles = positions * frequencies
    pe = np.empty((T, C))
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    return pe

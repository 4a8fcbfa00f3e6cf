# Positions run 1..T instead of 0..T-1.
# expect: looks like positions start at 1 instead of 0
import numpy as np


def sinusoidal_pe(T, C):
    positions = np.arange(1, T + 1, dtype=np.float64)[:, None]
    frequencies = 1.0 / 10000.0 ** (np.arange(0, C, 2) / C)
    angles = positions * frequencies
    pe = np.empty((T, C))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe

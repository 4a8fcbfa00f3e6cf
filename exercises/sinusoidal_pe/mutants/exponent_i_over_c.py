# Exponent uses i/C instead of 2i/C, so the frequencies fall off too slowly.
# expect: looks like the exponent uses i/C instead of 2i/C
import numpy as np


def sinusoidal_pe(T, C):
    positions = np.arange(T, dtype=np.float64)[:, None]
    i = np.arange(C // 2, dtype=np.float64)
    angles = positions / 10000.0 ** (i / C)
    pe = np.empty((T, C))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe

# Treats the angle t * omega_i as degrees and converts it to radians before sin/cos.
# expect: looks like the angles were treated as degrees
import numpy as np


def sinusoidal_pe(T, C):
    positions = np.arange(T, dtype=np.float64)[:, None]
    frequencies = 1.0 / 10000.0 ** (np.arange(0, C, 2) / C)
    angles = np.deg2rad(positions * frequencies)
    pe = np.empty((T, C))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe

import numpy as np


def sinusoidal_pe(T, C):
    """Sinusoidal positional encoding table of shape (T, C), float64."""
    positions = np.arange(T, dtype=np.float64)[:, None]        # (T, 1): t = 0 .. T-1
    two_i = np.arange(0, C, 2, dtype=np.float64)               # (C/2,): 0, 2, 4, ...
    frequencies = 1.0 / 10000.0 ** (two_i / C)                 # omega_i, from 1 down to ~1/10000
    angles = positions * frequencies                           # (T, C/2) by broadcasting

    pe = np.empty((T, C), dtype=np.float64)
    pe[:, 0::2] = np.sin(angles)                               # even columns: sin
    pe[:, 1::2] = np.cos(angles)                               # odd columns: cos, same frequency
    return pe

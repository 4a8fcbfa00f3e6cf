import numpy as np


def position_similarity(T, C):
    """(T, T) matrix of dot products PE[p1] . PE[p2] between sinusoidal encodings."""
    positions = np.arange(T, dtype=np.float64)[:, None]
    frequencies = 1.0 / 10000.0 ** (np.arange(0, C, 2) / C)
    angles = positions * frequencies                     # (T, C/2)

    pe = np.empty((T, C), dtype=np.float64)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)

    # Gram matrix: entry (p1, p2) is the dot product of rows p1 and p2.
    # It equals sum_i cos((p1 - p2) * w_i), a function of p1 - p2 only.
    return pe @ pe.T

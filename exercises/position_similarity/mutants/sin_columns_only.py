# Forgets the cos columns: only the sin half of each pair enters the dot product.
# expect: looks like only the sin columns were used
import numpy as np


def position_similarity(T, C):
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    sines = np.sin(angles)
    return sines @ sines.T

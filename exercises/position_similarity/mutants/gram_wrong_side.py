# Computes PE.T @ PE, a (C, C) matrix comparing dimensions, instead of PE @ PE.T comparing positions.
# expect: looks like PE.T @ PE
import numpy as np


def position_similarity(T, C):
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    pe = np.empty((T, C))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe.T @ pe

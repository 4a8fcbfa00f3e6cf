# Stacks all sin columns then all cos columns ([sin..., cos...]) instead of interleaving them.
import numpy as np


def sinusoidal_pe(T, C):
    positions = np.arange(T, dtype=np.float64)[:, None]
    frequencies = 1.0 / 10000.0 ** (np.arange(0, C, 2) / C)
    angles = positions * frequencies
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)

# Stacks all sin columns then all cos columns ([sin..., cos...]) instead of interleaving them.
# expect: looks like all sin values fill the first C/2 columns and all cos values the last C/2
import numpy as np


def sinusoidal_pe(T, C):
    positions = np.arange(T, dtype=np.float64)[:, None]
    frequencies = 1.0 / 10000.0 ** (np.arange(0, C, 2) / C)
    angles = positions * frequencies
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)

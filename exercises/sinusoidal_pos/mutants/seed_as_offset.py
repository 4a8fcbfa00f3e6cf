# Uses the seed as the first position (positions seed .. seed+T-1) instead of ignoring it.
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    T, d_model = int(T), int(d_model)
    positions = np.arange(seed, seed + T)[:, None]
    angles = positions / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    table = np.empty((T, d_model))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table.reshape(-1)

# Numbers the positions 1 .. T instead of 0 .. T - 1.
# expect: positions start at 1 instead of 0
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    T, d_model = int(T), int(d_model)
    angles = np.arange(1, T + 1)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    table = np.empty((T, d_model))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table.reshape(-1)

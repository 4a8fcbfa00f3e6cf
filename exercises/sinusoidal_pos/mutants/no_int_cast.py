# Never casts T and d_model to int, so a float size such as 6.0 crashes np.zeros.
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    table = np.zeros((T, d_model))
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table.reshape(-1)

# Flattens the table column by column (the transpose's rows) instead of row after row.
# expect: flattened column by column
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    T, d_model = int(T), int(d_model)
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    table = np.empty((T, d_model))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table.T.reshape(-1)

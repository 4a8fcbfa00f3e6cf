# Uses the pair index i over d_model as the exponent, forgetting the factor 2.
# expect: the exponent uses i/d_model instead of 2i/d_model
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    T, d_model = int(T), int(d_model)
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(d_model // 2) / d_model)
    table = np.empty((T, d_model))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table.reshape(-1)

# Uses the sizes as they come, so a float T or d_model breaks np.zeros.
# expect: cast them with T = int(T)
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    table = np.zeros((T, d_model))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table.reshape(-1)

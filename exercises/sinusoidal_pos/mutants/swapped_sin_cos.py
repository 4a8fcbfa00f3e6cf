# Puts the cosine in the even columns and the sine in the odd ones.
# expect: sin and cos are swapped
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    T, d_model = int(T), int(d_model)
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    table = np.empty((T, d_model))
    table[:, 0::2] = np.cos(angles)
    table[:, 1::2] = np.sin(angles)
    return table.reshape(-1)

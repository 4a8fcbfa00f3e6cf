# Gives every column its own frequency from its index k (k / d_model), so a cosine does not share its sine's.
# expect: the exponent uses the column index k/d_model
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    T, d_model = int(T), int(d_model)
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(d_model) / d_model)
    table = np.where(np.arange(d_model) % 2 == 0, np.sin(angles), np.cos(angles))
    return table.reshape(-1)

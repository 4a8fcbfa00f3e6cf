# Concatenates all the sines, then all the cosines (tensor2tensor's layout), instead of interleaving them.
# expect: all sin values fill the first d_model/2 columns
import numpy as np


def sinusoidal_pos(seed, T, d_model):
    T, d_model = int(T), int(d_model)
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1).reshape(-1)

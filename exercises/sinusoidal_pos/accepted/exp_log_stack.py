# Frequencies as exp(-2i * ln(10000) / d_model), the pairs interleaved by stacking on a last axis.
import math

import numpy as np


def sinusoidal_pos(seed, T, d_model):
    T, d_model = int(T), int(d_model)
    div = np.exp(np.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    angles = np.outer(np.arange(T), div)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(-1)

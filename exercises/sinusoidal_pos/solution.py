import numpy as np


def sinusoidal_pos(seed, T, d_model):
    """The (T, d_model) sinusoidal position table of Vaswani et al., flattened; `seed` is unused."""
    T, d_model = int(T), int(d_model)
    positions = np.arange(T, dtype=np.float64)[:, None]                   # (T, 1)
    frequencies = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)        # (d_model / 2,)
    angles = positions * frequencies                                      # (T, d_model / 2)
    table = np.empty((T, d_model), dtype=np.float64)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table.reshape(-1)

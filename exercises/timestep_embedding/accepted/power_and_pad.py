# Frequencies as max_period ** (-k / h), the odd dim's zero column added with np.pad, np.atleast_1d for a scalar.
import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    dim = int(dim)
    t = np.atleast_1d(np.array(timesteps, dtype=float))
    half = dim // 2
    freqs = float(max_period) ** (-np.arange(half) / half)
    angles = np.outer(t, freqs)
    table = np.hstack([np.cos(angles), np.sin(angles)])
    return np.pad(table, ((0, 0), (0, dim % 2))).ravel()

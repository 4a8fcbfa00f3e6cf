import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    """Improved DDPM's timestep embedding: [cos | sin] (+ a zero column for an odd dim), flattened."""
    dim = int(dim)
    t = np.asarray(timesteps, dtype=np.float64).reshape(-1)      # a single number becomes [t]
    half = dim // 2
    freqs = np.exp(-math.log(max_period) * np.arange(half) / half)
    angles = t[:, None] * freqs[None, :]                          # (N, half)
    table = np.concatenate([np.cos(angles), np.sin(angles)], axis=1)
    if dim % 2:
        table = np.concatenate([table, np.zeros((len(t), 1))], axis=1)
    return table.reshape(-1)

# Always uses 10000 as the period, whatever max_period says.
# expect: max_period was ignored
import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    dim = int(dim)
    t = np.asarray(timesteps, dtype=np.float64).reshape(-1)
    half = dim // 2
    angles = t[:, None] * np.exp(-math.log(10000) * np.arange(half) / half)
    table = np.concatenate([np.cos(angles), np.sin(angles), np.zeros((len(t), dim % 2))], axis=1)
    return table.reshape(-1)

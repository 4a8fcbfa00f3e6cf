# Indexes timesteps[:, None] directly, which fails on a single number instead of treating it as [t].
# expect: a single timestep counts as the list
import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    dim = int(dim)
    t = np.asarray(timesteps, dtype=np.float64)
    half = dim // 2
    angles = t[:, None] * np.exp(-math.log(max_period) * np.arange(half) / half)
    table = np.concatenate([np.cos(angles), np.sin(angles), np.zeros((len(t), dim % 2))], axis=1)
    return table.reshape(-1)

# Returns the (N, dim) table itself instead of flattening it.
# expect: flatten it with .reshape(-1)
import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    dim = int(dim)
    t = np.asarray(timesteps, dtype=np.float64).reshape(-1)
    half = dim // 2
    angles = t[:, None] * np.exp(-math.log(max_period) * np.arange(half) / half)
    return np.concatenate([np.cos(angles), np.sin(angles), np.zeros((len(t), dim % 2))], axis=1)

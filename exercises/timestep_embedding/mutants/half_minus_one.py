# Divides the exponent by half - 1, as the original DDPM's get_timestep_embedding does.
# expect: divides by h - 1
import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    dim = int(dim)
    t = np.asarray(timesteps, dtype=np.float64).reshape(-1)
    half = dim // 2
    angles = t[:, None] * np.exp(-math.log(max_period) * np.arange(half) / (half - 1))
    table = np.concatenate([np.cos(angles), np.sin(angles), np.zeros((len(t), dim % 2))], axis=1)
    return table.reshape(-1)

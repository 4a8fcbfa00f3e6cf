# Puts the sines first and the cosines second (the original DDPM's order).
# expect: looks like the sines come first
import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    dim = int(dim)
    t = np.asarray(timesteps, dtype=np.float64).reshape(-1)
    half = dim // 2
    angles = t[:, None] * np.exp(-math.log(max_period) * np.arange(half) / half)
    table = np.concatenate([np.sin(angles), np.cos(angles), np.zeros((len(t), dim % 2))], axis=1)
    return table.reshape(-1)

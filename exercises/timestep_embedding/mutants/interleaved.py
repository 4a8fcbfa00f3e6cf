# Interleaves cosines and sines column by column, as step 1 does, instead of concatenating them.
# expect: cosines and sines alternate
import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    dim = int(dim)
    t = np.asarray(timesteps, dtype=np.float64).reshape(-1)
    half = dim // 2
    angles = t[:, None] * np.exp(-math.log(max_period) * np.arange(half) / half)
    table = np.zeros((len(t), dim))
    table[:, 0:2 * half:2] = np.cos(angles)
    table[:, 1:2 * half:2] = np.sin(angles)
    return table.reshape(-1)

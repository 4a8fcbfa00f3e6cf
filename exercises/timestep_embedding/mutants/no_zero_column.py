# Forgets the zero column of an odd dim, so each row is dim - 1 wide.
# expect: dim is odd: append one column of zeros
import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    dim = int(dim)
    t = np.asarray(timesteps, dtype=np.float64).reshape(-1)
    half = dim // 2
    angles = t[:, None] * np.exp(-math.log(max_period) * np.arange(half) / half)
    return np.concatenate([np.cos(angles), np.sin(angles)], axis=1).reshape(-1)

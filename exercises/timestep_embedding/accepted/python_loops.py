# Plain Python loops with math, a scalar detected with isinstance.
import math

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    if isinstance(timesteps, (int, float)):
        timesteps = [timesteps]
    dim, values = int(dim), []
    half = dim // 2
    for t in timesteps:
        freqs = [math.exp(-math.log(max_period) * k / half) for k in range(half)]
        values += [math.cos(t * f) for f in freqs] + [math.sin(t * f) for f in freqs] + [0.0] * (dim % 2)
    return np.array(values)

# Draws from numpy's global generator instead of np.random.default_rng(seed).
# expect: gave two different results for the same seed
import math

import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    n = int(n)
    inside = 0.5 * (math.erf(upper / math.sqrt(2)) - math.erf(lower / math.sqrt(2)))
    out = np.empty(0)
    while out.size < n:
        z = np.random.standard_normal(int(1.2 * (n - out.size) / inside) + 16)
        out = np.concatenate([out, z[(z >= lower) & (z <= upper)]])
    return std * out[:n]

import math

import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    """n draws of std * Z, Z ~ N(0, 1) conditioned on lower <= Z <= upper (rejection sampling)."""
    n = int(n)
    rng = np.random.default_rng(seed)
    inside = 0.5 * (math.erf(upper / math.sqrt(2)) - math.erf(lower / math.sqrt(2)))  # P(lower <= Z <= upper)
    kept = np.empty(0)
    while kept.size < n:
        missing = n - kept.size
        z = rng.standard_normal(int(1.2 * missing / inside) + 16)  # enough, most of the time, in one round
        kept = np.concatenate([kept, z[(z >= lower) & (z <= upper)]])
    return std * kept[:n]

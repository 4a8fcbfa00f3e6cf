# Treats std as the variance: scales by sqrt(std).
# expect: looks like std was used as the variance
import math

import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    n = int(n)
    rng = np.random.default_rng(seed)
    inside = 0.5 * (math.erf(upper / math.sqrt(2)) - math.erf(lower / math.sqrt(2)))
    out = np.empty(0)
    while out.size < n:
        z = rng.standard_normal(int(1.2 * (n - out.size) / inside) + 16)
        out = np.concatenate([out, z[(z >= lower) & (z <= upper)]])
    return np.sqrt(std) * out[:n]

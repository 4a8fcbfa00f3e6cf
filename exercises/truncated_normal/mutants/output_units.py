# Applies the bounds to the output std * Z (PyTorch's trunc_normal_ convention), not to Z.
# expect: looks like the bounds were applied to the output
import math

import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    n = int(n)
    rng = np.random.default_rng(seed)
    inside = 0.5 * (math.erf(upper / std / math.sqrt(2)) - math.erf(lower / std / math.sqrt(2)))
    out = np.empty(0)
    while out.size < n:
        x = std * rng.standard_normal(int(1.2 * (n - out.size) / inside) + 16)
        out = np.concatenate([out, x[(x >= lower) & (x <= upper)]])
    return out[:n]

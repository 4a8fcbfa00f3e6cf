# Draws 3n normals once and keeps those in range: fewer than n when the range holds little mass.
# expect: expected shape
import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    n = int(n)
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(3 * n)
    return std * z[(z >= lower) & (z <= upper)][:n]

# Draws n normals, then draws again exactly the out-of-range entries until none is left.
import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=int(n))
    bad = (z < lower) | (z > upper)
    while bad.any():
        z[bad] = rng.normal(size=int(bad.sum()))
        bad = (z < lower) | (z > upper)
    return z * std

# Draws out-of-range entries again only once, then clips what is still out of range.
# expect: looks like out-of-range draws were clipped onto the bounds
import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    n = int(n)
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(n)
    bad = (z < lower) | (z > upper)
    z[bad] = rng.standard_normal(int(bad.sum()))
    return std * np.clip(z, lower, upper)

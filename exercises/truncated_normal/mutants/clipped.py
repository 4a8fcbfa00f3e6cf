# Clips out-of-range draws onto the bounds instead of drawing them again.
# expect: looks like out-of-range draws were clipped onto the bounds
import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    n = int(n)
    rng = np.random.default_rng(seed)
    return std * np.clip(rng.standard_normal(n), lower, upper)

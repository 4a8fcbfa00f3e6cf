# Keeps the entries as 1 instead of 1 / (1 - p) (dropout without the inverted scale).
# expect: looks like the kept entries were not divided by 1 - p
import numpy as np


def dropout_mask(seed, n, p):
    rng = np.random.default_rng(seed)
    return (rng.random(int(n)) >= p).astype(np.float64)

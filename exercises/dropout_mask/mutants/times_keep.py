# Multiplies the kept entries by 1 - p instead of dividing by it.
# expect: looks like the kept entries were multiplied by 1 - p
import numpy as np


def dropout_mask(seed, n, p):
    rng = np.random.default_rng(seed)
    return (rng.random(int(n)) >= p) * (1.0 - p)

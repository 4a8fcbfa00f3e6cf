# Treats p as the probability of keeping an entry.
# expect: looks like p was used as the probability of keeping an entry
import numpy as np


def dropout_mask(seed, n, p):
    rng = np.random.default_rng(seed)
    return (rng.random(int(n)) < p) / (1.0 - p)

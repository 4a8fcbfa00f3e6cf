# Draws from numpy's global generator instead of np.random.default_rng(seed).
# expect: gave two different results for the same seed
import numpy as np


def dropout_mask(seed, n, p):
    return (np.random.random(int(n)) >= p) / (1.0 - p)

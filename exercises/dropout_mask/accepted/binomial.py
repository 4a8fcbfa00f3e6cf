# Draws the kept entries with rng.binomial(1, 1 - p, n) instead of comparing uniforms.
import numpy as np


def dropout_mask(seed, n, p):
    rng = np.random.default_rng(seed)
    return rng.binomial(1, 1 - p, size=int(n)) / (1 - p)

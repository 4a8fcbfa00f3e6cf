# Picks each entry's value with rng.choice over the two values and their probabilities.
import numpy as np


def dropout_mask(seed, n, p):
    rng = np.random.default_rng(seed)
    return rng.choice(np.array([0.0, 1.0 / (1.0 - p)]), size=int(n), p=[p, 1.0 - p])

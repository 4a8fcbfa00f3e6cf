import numpy as np


def dropout_mask(seed, n, p):
    """Inverted-dropout mask of shape (n,): 0 with probability p, else 1 / (1 - p)."""
    rng = np.random.default_rng(seed)
    keep = rng.random(int(n)) >= p             # True with probability 1 - p
    return keep / (1.0 - p)                    # float64: 0.0 or 1 / (1 - p)

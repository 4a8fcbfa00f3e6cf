# Keeps an entry when its uniform draw is below 1 - p (the other end of [0, 1)), with np.where.
import numpy as np


def dropout_mask(seed, n, p):
    rng = np.random.default_rng(seed)
    u = rng.random(size=int(n))
    return np.where(u < 1 - p, 1.0 / (1 - p), 0.0)

# Drops exactly round(p * n) entries chosen at random: the entries are not independent.
# expect: looks like exactly round(p * n) entries were dropped
import numpy as np


def dropout_mask(seed, n, p):
    rng = np.random.default_rng(seed)
    n = int(n)
    mask = np.full(n, 1.0 / (1.0 - p))
    mask[rng.permutation(n)[:round(p * n)]] = 0.0
    return mask

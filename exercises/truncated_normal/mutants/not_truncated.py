# Returns std * Z without truncating at all.
# expect: looks like the draws were not truncated
import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    n = int(n)
    rng = np.random.default_rng(seed)
    return std * rng.standard_normal(n)

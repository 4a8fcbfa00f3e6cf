# Rejection sampling one draw at a time, in a plain Python loop.
import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < int(n):
        z = rng.standard_normal()
        if lower <= z <= upper:
            out.append(std * z)
    return np.array(out, dtype=np.float64)

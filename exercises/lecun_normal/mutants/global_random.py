# Draws the truncated normal from numpy's global generator instead of the seed's.
# expect: gave two different results for the same seed
import numpy as np


def lecun_normal(seed, fan_in, fan_out):
    z = np.random.standard_normal(int(fan_in) * int(fan_out))
    while (np.abs(z) > 2).any():
        bad = np.abs(z) > 2
        z[bad] = np.random.standard_normal(int(bad.sum()))
    return z * np.sqrt(1.0 / int(fan_in)) / 0.87962566103423978

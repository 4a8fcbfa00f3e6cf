# Draws from numpy's global generator instead of np.random.default_rng(seed).
# expect: gave two different results for the same seed
import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    a = gain * np.sqrt(6.0 / (int(fan_in) + int(fan_out)))
    return np.random.uniform(-a, a, size=int(fan_in) * int(fan_out))

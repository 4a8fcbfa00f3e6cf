# Multiplies the bound by gain squared (the gain of the variance) instead of gain.
# expect: looks like the bound was multiplied by gain squared
import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    rng = np.random.default_rng(seed)
    a = gain ** 2 * np.sqrt(6.0 / (int(fan_in) + int(fan_out)))
    return rng.uniform(-a, a, size=int(fan_in) * int(fan_out))

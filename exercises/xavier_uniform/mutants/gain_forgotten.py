# Ignores the gain argument.
# expect: looks like the gain was left out
import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    rng = np.random.default_rng(seed)
    a = np.sqrt(6.0 / (int(fan_in) + int(fan_out)))
    return rng.uniform(-a, a, size=int(fan_in) * int(fan_out))

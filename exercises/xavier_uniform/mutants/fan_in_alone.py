# Uses fan_in alone in the bound: gain * sqrt(6 / fan_in).
# expect: looks like the bound used fan_in alone
import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    rng = np.random.default_rng(seed)
    a = gain * np.sqrt(6.0 / int(fan_in))
    return rng.uniform(-a, a, size=int(fan_in) * int(fan_out))

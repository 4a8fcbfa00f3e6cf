# Uses the target standard deviation sqrt(2 / (fan_in + fan_out)) as the bound of the uniform.
# expect: looks like the bound is the standard deviation
import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    rng = np.random.default_rng(seed)
    a = gain * np.sqrt(2.0 / (int(fan_in) + int(fan_out)))
    return rng.uniform(-a, a, size=int(fan_in) * int(fan_out))

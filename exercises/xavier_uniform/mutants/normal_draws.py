# Draws from a normal with the right variance (Xavier normal) instead of the uniform.
# expect: looks like the draws are normal
import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    rng = np.random.default_rng(seed)
    std = gain * np.sqrt(2.0 / (int(fan_in) + int(fan_out)))
    return rng.normal(0.0, std, size=int(fan_in) * int(fan_out))

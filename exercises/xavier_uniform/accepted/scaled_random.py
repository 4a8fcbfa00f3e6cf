# Maps rng.random() from [0, 1) to [-a, a) by hand: 2 * a * u - a.
import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    fan_in, fan_out = int(fan_in), int(fan_out)
    a = gain * (6 / (fan_in + fan_out)) ** 0.5
    u = np.random.default_rng(seed).random(fan_in * fan_out)
    return 2 * a * u - a

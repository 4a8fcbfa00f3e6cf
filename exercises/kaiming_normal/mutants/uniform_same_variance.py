# Draws from the uniform with the right variance (Kaiming uniform) instead of a normal.
# expect: looks like the draws are uniform
import numpy as np

GAINS = {"relu": np.sqrt(2.0), "linear": 1.0, "tanh": 5.0 / 3.0}


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    if nonlinearity not in GAINS:
        raise ValueError(f"unknown nonlinearity {nonlinearity!r}")
    gain = GAINS[nonlinearity]
    rng = np.random.default_rng(seed)
    size = int(fan_in) * int(fan_out)
    a = gain * np.sqrt(3.0 / int(fan_in))
    return rng.uniform(-a, a, size)

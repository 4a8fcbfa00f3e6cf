# Passes the variance gain^2 / fan_in to rng.normal, which takes the standard deviation.
# expect: looks like the variance gain² / fan_in was passed as the standard deviation
import numpy as np

GAINS = {"relu": np.sqrt(2.0), "linear": 1.0, "tanh": 5.0 / 3.0}


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    if nonlinearity not in GAINS:
        raise ValueError(f"unknown nonlinearity {nonlinearity!r}")
    gain = GAINS[nonlinearity]
    rng = np.random.default_rng(seed)
    size = int(fan_in) * int(fan_out)
    return rng.normal(0.0, gain ** 2 / int(fan_in), size)

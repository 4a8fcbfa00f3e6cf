# Draws from numpy's global generator instead of np.random.default_rng(seed).
# expect: gave two different results for the same seed
import numpy as np

GAINS = {"relu": np.sqrt(2.0), "linear": 1.0, "tanh": 5.0 / 3.0}


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    if nonlinearity not in GAINS:
        raise ValueError(f"unknown nonlinearity {nonlinearity!r}")
    gain = GAINS[nonlinearity]
    size = int(fan_in) * int(fan_out)
    return np.random.normal(0.0, gain / np.sqrt(int(fan_in)), size)

# Gives tanh the gain 1 of a linear layer (the old LeCun scale) instead of 5/3.
# expect: looks like the gain for 'tanh' is 1
import numpy as np


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    if nonlinearity == "relu":
        gain = np.sqrt(2.0)
    elif nonlinearity in ("linear", "tanh"):
        gain = 1.0
    else:
        raise ValueError(f"unknown nonlinearity {nonlinearity!r}")
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, gain / np.sqrt(int(fan_in)), int(fan_in) * int(fan_out))

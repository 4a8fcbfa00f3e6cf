# Falls back to gain 1 for an unknown nonlinearity instead of raising ValueError.
# expect: should raise ValueError naming 'sigmoid'
import numpy as np


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    gain = {"relu": np.sqrt(2.0), "tanh": 5.0 / 3.0}.get(nonlinearity, 1.0)
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, gain / np.sqrt(int(fan_in)), int(fan_in) * int(fan_out))

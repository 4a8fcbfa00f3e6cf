# Computes the variance gain^2 / fan_in first and takes its square root for rng.normal's scale.
import numpy as np


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    gain_squared = {"relu": 2.0, "linear": 1.0, "tanh": 25.0 / 9.0}
    if nonlinearity not in gain_squared:
        raise ValueError(f"{nonlinearity} is not a supported nonlinearity")
    variance = gain_squared[nonlinearity] / int(fan_in)
    rng = np.random.default_rng(seed)
    return rng.normal(loc=0.0, scale=np.sqrt(variance), size=int(fan_in) * int(fan_out))

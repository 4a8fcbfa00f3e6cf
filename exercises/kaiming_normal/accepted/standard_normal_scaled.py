# Scales rng.standard_normal by the std, with the gain chosen by if/elif and the matrix drawn as (fan_out, fan_in).
import math

import numpy as np


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    if nonlinearity == "relu":
        gain = math.sqrt(2)
    elif nonlinearity == "linear":
        gain = 1
    elif nonlinearity == "tanh":
        gain = 5 / 3
    else:
        raise ValueError("nonlinearity must be relu, linear or tanh, got " + str(nonlinearity))
    n_in, n_out = int(fan_in), int(fan_out)
    z = np.random.default_rng(seed).standard_normal((n_out, n_in))
    return (z * (gain / math.sqrt(n_in))).T.ravel()

# Computes the variance first and the bound from it, sqrt(3 * var), drawing the matrix as (fan_out, fan_in).
import math

import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    n_in, n_out = int(fan_in), int(fan_out)
    var = gain * gain * 2.0 / (n_in + n_out)
    bound = math.sqrt(3.0 * var)
    rng = np.random.default_rng(seed)
    return rng.uniform(low=-bound, high=bound, size=(n_out, n_in)).T.flatten()

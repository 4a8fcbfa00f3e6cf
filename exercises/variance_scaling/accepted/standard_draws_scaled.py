# Scales standard draws (standard_normal, 2u - 1) by hand, with if/elif chains, drawing (fan_out, fan_in).
import math

import numpy as np


def variance_scaling(seed, fan_in, fan_out, scale, mode, distribution):
    fi, fo = int(fan_in), int(fan_out)
    if mode == "fan_in":
        denominator = fi
    elif mode == "fan_out":
        denominator = fo
    elif mode == "fan_avg":
        denominator = 0.5 * (fi + fo)
    else:
        raise ValueError("invalid mode: " + repr(mode))
    std = math.sqrt(scale / denominator)
    if distribution == "truncated_normal":
        return truncated_normal(seed, fi * fo, std / .87962566103423978)
    rng = np.random.default_rng(seed)
    if distribution == "normal":
        return (std * rng.standard_normal((fo, fi))).T.reshape(-1)
    elif distribution == "uniform":
        return math.sqrt(3) * std * (2 * rng.random(fi * fo) - 1)
    raise ValueError(f"invalid distribution: {distribution}")

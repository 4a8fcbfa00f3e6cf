# Draws the truncated normal itself by resampling instead of calling truncated_normal.
import numpy as np


def variance_scaling(seed, fan_in, fan_out, scale, mode, distribution):
    fan_in, fan_out = int(fan_in), int(fan_out)
    n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}.get(mode)
    if n is None:
        raise ValueError(f"mode should be fan_in, fan_out or fan_avg, not {mode}")
    variance = scale / n
    rng = np.random.default_rng(seed)
    size = (fan_in, fan_out)
    if distribution == "normal":
        w = rng.normal(scale=np.sqrt(variance), size=size)
    elif distribution == "uniform":
        limit = np.sqrt(3 * variance)
        w = rng.uniform(-limit, limit, size=size)
    elif distribution == "truncated_normal":
        z = rng.standard_normal(size)
        outside = np.abs(z) > 2
        while outside.any():
            z[outside] = rng.standard_normal(int(outside.sum()))
            outside = np.abs(z) > 2
        w = z * np.sqrt(variance) / 0.87962566103423978
    else:
        raise ValueError(f"distribution should be normal, uniform or truncated_normal, not {distribution}")
    return w.reshape(-1)

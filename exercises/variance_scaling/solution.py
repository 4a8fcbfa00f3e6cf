import numpy as np

# The standard deviation of a standard normal truncated to [-2, 2]: dividing by it gives the truncated draws
# the variance asked for.
TRUNCATED_STD = 0.87962566103423978


def variance_scaling(seed, fan_in, fan_out, scale, mode, distribution):
    """(fan_in, fan_out) draws with mean 0 and variance scale / n (n from mode), flattened."""
    fan_in, fan_out = int(fan_in), int(fan_out)
    fans = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}
    if mode not in fans:
        raise ValueError(f"unknown mode {mode!r}: expected 'fan_in', 'fan_out' or 'fan_avg'")
    if distribution not in ("normal", "uniform", "truncated_normal"):
        raise ValueError(f"unknown distribution {distribution!r}: expected 'normal', 'uniform' or "
                         f"'truncated_normal'")
    variance = scale / fans[mode]
    size = fan_in * fan_out
    if distribution == "truncated_normal":
        return truncated_normal(seed, size, std=np.sqrt(variance) / TRUNCATED_STD, lower=-2.0, upper=2.0)
    rng = np.random.default_rng(seed)
    if distribution == "normal":
        return rng.normal(0.0, np.sqrt(variance), size)
    bound = np.sqrt(3.0 * variance)                     # U(-a, a) has variance a^2 / 3
    return rng.uniform(-bound, bound, size)

import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    """(fan_in, fan_out) draws from U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)), flattened."""
    fan_in, fan_out = int(fan_in), int(fan_out)
    rng = np.random.default_rng(seed)
    a = gain * np.sqrt(6.0 / (fan_in + fan_out))   # U(-a, a) has variance a^2 / 3 = gain^2 * 2 / (fan_in + fan_out)
    return rng.uniform(-a, a, size=(fan_in, fan_out)).reshape(-1)

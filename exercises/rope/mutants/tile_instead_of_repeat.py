# Expands the d/2 angles to d columns with np.tile (0, 1, ..., 0, 1, ...) instead of np.repeat (0, 0, 1, 1, ...).
# expect: looks like the d/2 angles were spread over the d columns with np.tile
import numpy as np


def rotate_pairs(x):
    out = np.empty_like(x)
    out[:, 0::2] = -x[:, 1::2]
    out[:, 1::2] = x[:, 0::2]
    return out


def rope(x, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    omega = base ** (-np.arange(0, d, 2) / d)
    angles = np.tile(np.arange(T)[:, None] * omega, (1, 2))
    return x * np.cos(angles) + rotate_pairs(x) * np.sin(angles)

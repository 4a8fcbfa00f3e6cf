# Frequencies base**(-i/d) instead of base**(-2i/d), so they fall off too slowly.
# expect: looks like the exponent uses i/d instead of 2i/d
import numpy as np


def rope(x, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    omega = base ** (-np.arange(d // 2) / d)
    angles = np.arange(T)[:, None] * omega
    cos, sin = np.cos(angles), np.sin(angles)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * cos - x[:, 1::2] * sin
    out[:, 1::2] = x[:, 0::2] * sin + x[:, 1::2] * cos
    return out

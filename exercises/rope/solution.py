import numpy as np


def rope(x, base=10000.0):
    """Rotary position embedding of x (T, d): pair (2i, 2i+1) of row t rotated by t * base**(-2i/d)."""
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    omega = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)    # (d/2,): 1, base^(-2/d), ...
    angles = np.arange(T, dtype=np.float64)[:, None] * omega       # (T, d/2): t * omega_i
    cos, sin = np.cos(angles), np.sin(angles)

    even, odd = x[:, 0::2], x[:, 1::2]                              # the two halves of every pair
    out = np.empty_like(x)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out

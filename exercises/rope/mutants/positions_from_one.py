# Positions run 1..T instead of 0..T-1, so row 0 is already rotated.
# expect: looks like positions start at 1 instead of 0
import numpy as np


def rope(x, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    omega = base ** (-np.arange(0, d, 2) / d)
    angles = np.arange(1, T + 1)[:, None] * omega
    cos, sin = np.cos(angles), np.sin(angles)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * cos - x[:, 1::2] * sin
    out[:, 1::2] = x[:, 0::2] * sin + x[:, 1::2] * cos
    return out

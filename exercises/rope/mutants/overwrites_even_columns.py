# Rotates in place: the even columns are overwritten first, and the odd columns are then computed from the rotated values.
# expect: looks like column 2i was overwritten with its rotated value before column 2i+1 was
import numpy as np


def rope(x, base=10000.0):
    x = np.array(x, dtype=np.float64)
    T, d = x.shape
    omega = base ** (-np.arange(0, d, 2) / d)
    angles = np.arange(T)[:, None] * omega
    cos, sin = np.cos(angles), np.sin(angles)
    x[:, 0::2] = x[:, 0::2] * cos - x[:, 1::2] * sin
    x[:, 1::2] = x[:, 0::2] * sin + x[:, 1::2] * cos
    return x

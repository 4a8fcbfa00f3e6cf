# The sin term of out[2i+1] has the wrong sign: x[2i]*(-sin) + x[2i+1]*cos, which is not a rotation.
# expect: looks like the sin term of out[2i+1] has the wrong sign
import numpy as np


def rope(x, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    omega = base ** (-np.arange(0, d, 2) / d)
    angles = np.arange(T)[:, None] * omega
    cos, sin = np.cos(angles), np.sin(angles)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * cos - x[:, 1::2] * sin
    out[:, 1::2] = -x[:, 0::2] * sin + x[:, 1::2] * cos
    return out

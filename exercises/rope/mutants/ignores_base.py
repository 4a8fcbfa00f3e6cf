# Hard-codes 10000 and ignores the base argument.
# expect: looks like the base argument
import numpy as np


def rope(x, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    out = np.empty_like(x)
    for t in range(T):
        for i in range(d // 2):
            angle = t / 10000.0 ** (2 * i / d)
            c, s = np.cos(angle), np.sin(angle)
            out[t, 2 * i] = x[t, 2 * i] * c - x[t, 2 * i + 1] * s
            out[t, 2 * i + 1] = x[t, 2 * i] * s + x[t, 2 * i + 1] * c
    return out

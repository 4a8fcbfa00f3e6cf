# expect: passed
# Correct, and also changes numpy's floating-point error handling: raise at import, ignore in the function.
import numpy as np

np.seterr(all="raise")


def sinusoidal_pe(T, C):
    # Computed while errors may still raise: this formula has no overflow, underflow or division by zero.
    angle = np.arange(T, dtype=np.float64)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    table = np.empty((T, C))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    np.seterr(all="ignore")
    np.float64(1.0) / np.float64(0.0)  # would raise under all="raise"; ignored now
    return table

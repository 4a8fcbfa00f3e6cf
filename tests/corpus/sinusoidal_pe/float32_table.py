# expect: failed
# message: is float32 but this test expects float64: compute and return float64
# The right table computed and returned in float32: refused by design, since sinusoidal_pe(T, C) takes
# integers and calls for float64 (numpy's default); a tolerance read from the result's dtype would let
# wrong answers pass by returning a lower precision.
import numpy as np


def sinusoidal_pe(T, C):
    t = np.arange(T, dtype=np.float32)[:, None]
    i = np.arange(C // 2, dtype=np.float32)[None, :]
    angle = t / np.power(np.float32(10000), 2 * i / np.float32(C))
    table = np.empty((T, C), dtype=np.float32)
    table[:, ::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table

# expect: passed
# Correct, with a module-level cache keyed by (T, C) that returns the very same array object every time.
import numpy as np

_CACHE = {}


def sinusoidal_pe(T, C):
    if (T, C) not in _CACHE:
        angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
        table = np.empty((T, C))
        table[:, 0::2] = np.sin(angle)
        table[:, 1::2] = np.cos(angle)
        _CACHE[T, C] = table
    return _CACHE[T, C]

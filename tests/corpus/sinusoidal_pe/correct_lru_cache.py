# expect: passed
# Correct, with the tables memoised by functools.lru_cache on (T, C); each call returns a copy.
import functools

import numpy as np


@functools.lru_cache(maxsize=None)
def _cached(T, C):
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    table = np.empty((T, C))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


def sinusoidal_pe(T, C):
    return _cached(T, C).copy()

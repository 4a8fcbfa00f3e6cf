# expect: passed
# Correct, and also reseeds numpy's global random state and draws from it, at import and in the function.
import numpy as np

np.random.seed(1)
_warmup = np.random.rand(3)


def sinusoidal_pe(T, C):
    np.random.seed(1)
    np.random.rand(3)
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    table = np.empty((T, C))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table

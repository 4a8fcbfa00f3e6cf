# expect: passed
# Correct, and also draws (unused) numbers from a freshly seeded numpy Generator.
import numpy as np


def sinusoidal_pe(T, C):
    rng = np.random.default_rng(0)
    noise = rng.normal(size=(T, C))  # drawn and never used
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    table = np.empty((T, C))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    del noise
    return table

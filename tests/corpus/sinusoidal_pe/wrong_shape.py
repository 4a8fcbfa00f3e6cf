# expect: failed
# message: shape
import numpy as np


def sinusoidal_pe(T, C):
    positions = np.arange(T)[:, None]
    rates = 1.0 / 10000 ** (np.arange(0, C, 2) / C)
    table = np.zeros((T, C))
    table[:, 0::2] = np.sin(positions * rates)
    table[:, 1::2] = np.cos(positions * rates)
    return table.T

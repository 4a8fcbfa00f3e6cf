# expect: failed
# message: dtype
import numpy as np


def sinusoidal_pe(T, C):
    table = np.zeros((T, C), dtype=np.int64)
    table[:, 1::2] = 1
    return table

# expect: passed
import numpy as np


def sinusoidal_pe(T, C):
    t = np.arange(T, dtype=np.float32)[:, None]
    i = np.arange(C // 2, dtype=np.float32)[None, :]
    angle = t / np.power(np.float32(10000), 2 * i / np.float32(C))
    table = np.empty((T, C), dtype=np.float32)
    table[:, ::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table

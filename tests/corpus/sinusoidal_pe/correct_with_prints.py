# expect: passed
# Correct, and also prints the table and its shape on every call.
import numpy as np


def sinusoidal_pe(T, C):
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    pe = np.empty((T, C))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    print(pe)
    print(pe.shape)
    return pe

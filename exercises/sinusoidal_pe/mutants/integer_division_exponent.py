# Integer division in the exponent: 2*i//C is 0 for every pair, so all frequencies are 1.
# expect: looks like every pair got frequency 1
import numpy as np


def sinusoidal_pe(T, C):
    pe = np.zeros((T, C))
    for t in range(T):
        for i in range(C // 2):
            angle = t / 10000 ** (2 * i // C)
            pe[t, 2 * i] = np.sin(angle)
            pe[t, 2 * i + 1] = np.cos(angle)
    return pe

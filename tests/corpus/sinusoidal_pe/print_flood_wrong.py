# expect: failed
import numpy as np


def sinusoidal_pe(T, C):
    for k in range(10_000):
        print("all tests passed", k)
    return np.zeros((T, C))

# expect: error
# message: line 6
import numpy as np


def sinusoidal_pe(T, C)
    return np.zeros((T, C))

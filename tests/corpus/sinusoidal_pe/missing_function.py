# expect: error
# message: sinusoidal_pe
import numpy as np


def positional_encoding(T, C):
    return np.zeros((T, C))

# Loops over x with math.tanh: fine for a 1-D array, but each item of a 2-D array is a row and math.tanh fails.
import math

import numpy as np


def gelu(x):
    c = math.sqrt(2.0 / math.pi)
    return np.array([0.5 * v * (1.0 + math.tanh(c * (v + 0.044715 * v ** 3))) for v in x])

# Rounds the cubic coefficient to 0.0447 instead of 0.044715.
# expect: looks like the constant 0.0447 was used
import numpy as np


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.0447 * x ** 3)))

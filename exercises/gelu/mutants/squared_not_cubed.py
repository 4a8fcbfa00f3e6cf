# Uses x**2 instead of x**3 in the cubic term.
# expect: looks like x**2 was used in the cubic term
import numpy as np


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 2)))

# Drops the factor sqrt(2 / pi) from du/dx.
# expect: looks like the factor sqrt(2 / pi) is missing from du/dx
import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x)
    c = np.sqrt(2.0 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x ** 3))
    du_dx = 1.0 + 3 * 0.044715 * x ** 2
    return (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t ** 2) * du_dx) * np.asarray(dout)

# Writes du/dx with 0.044715 * x**2 instead of 3 * 0.044715 * x**2.
# expect: looks like du/dx uses 0.044715 * x**2
import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x)
    c = np.sqrt(2.0 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x ** 3))
    du_dx = c * (1.0 + 0.044715 * x ** 2)
    return (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t ** 2) * du_dx) * np.asarray(dout)

# Drops the 0.5 from the product rule's second term.
# expect: looks like the 0.5 is missing from the second term
import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x)
    c = np.sqrt(2.0 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x ** 3))
    du_dx = c * (1.0 + 3 * 0.044715 * x ** 2)
    return (0.5 * (1.0 + t) + x * (1.0 - t ** 2) * du_dx) * np.asarray(dout)

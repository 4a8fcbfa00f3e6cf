# Keeps only 0.5 * (1 + tanh(u)): the product rule's second term is forgotten.
# expect: looks like only 0.5 * (1 + tanh(u)): the product rule's second term
import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x)
    c = np.sqrt(2.0 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x ** 3))
    return 0.5 * (1.0 + t) * np.asarray(dout)

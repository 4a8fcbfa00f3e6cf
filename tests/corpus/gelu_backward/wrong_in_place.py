# expect: failed, error
# message: changed its argument dout in place
import numpy as np


def gelu_backward(x, dout):
    c = np.sqrt(2 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x ** 3))
    dout *= 0.5 * (1 + t) + 0.5 * x * (1 - t ** 2) * c * (1 + 3 * 0.044715 * x ** 2)
    return dout.copy()

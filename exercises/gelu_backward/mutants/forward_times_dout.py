# Returns gelu(x) * dout, the forward function instead of its derivative.
# expect: looks like gelu(x) * dout
import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x)
    c = np.sqrt(2.0 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x ** 3))
    return 0.5 * x * (1.0 + t) * np.asarray(dout)

# Computes in float32 whatever the inputs' precision.
# expect: is float32 but the inputs are float64
import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x, dtype=np.float32)
    c = np.float32(np.sqrt(2.0 / np.pi))
    t = np.tanh(c * (x + np.float32(0.044715) * x ** 3))
    du_dx = c * (1 + np.float32(3 * 0.044715) * x ** 2)
    return ((1 + t) / 2 + x / 2 * (1 - t ** 2) * du_dx) * np.asarray(dout, dtype=np.float32)

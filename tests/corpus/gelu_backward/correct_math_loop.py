# expect: passed
import math

import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x)
    dout = np.asarray(dout)
    out = np.empty(x.shape, dtype=np.result_type(x, dout))
    c = math.sqrt(2 / math.pi)
    for i, v in np.ndenumerate(x):
        v = float(v)
        t = math.tanh(c * (v + 0.044715 * v ** 3))
        out[i] = (0.5 * (1 + t) + 0.5 * v * (1 - t * t) * c * (1 + 0.134145 * v * v)) * dout[i]
    return out

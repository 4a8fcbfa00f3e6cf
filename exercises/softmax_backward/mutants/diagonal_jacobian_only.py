# Keeps only the diagonal of the Jacobian: y * (1 - y) * dout.
# expect: looks like only the diagonal of the softmax Jacobian
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y, dout = np.asarray(y), np.asarray(dout)
    return y * (1.0 - y) * dout

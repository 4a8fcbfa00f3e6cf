# Flips the sign: y * (sum(dout * y) - dout).
# expect: the sign is flipped
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y, dout = np.asarray(y), np.asarray(dout)
    return y * ((dout * y).sum(axis=axis, keepdims=True) - dout)

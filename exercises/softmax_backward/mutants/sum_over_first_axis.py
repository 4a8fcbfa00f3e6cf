# Sums over axis 0 instead of the softmax axis.
# expect: looks like the sum was taken over axis 0
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y, dout = np.asarray(y), np.asarray(dout)
    inner = (dout * y).sum(axis=0, keepdims=True)
    return y * (dout - inner)

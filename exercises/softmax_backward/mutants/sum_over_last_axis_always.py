# Ignores axis when summing: always sums over the last axis.
# expect: looks like the sum was taken over axis 1
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y, dout = np.asarray(y), np.asarray(dout)
    inner = (dout * y).sum(axis=-1, keepdims=True)
    return y * (dout - inner)

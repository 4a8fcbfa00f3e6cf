# Forgets the leading factor y: dout - sum(dout * y).
# expect: looks like dout - sum(dout * y) without the leading factor y
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y, dout = np.asarray(y), np.asarray(dout)
    return dout - (dout * y).sum(axis=axis, keepdims=True)

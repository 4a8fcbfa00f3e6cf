# Multiplies only dout by y: y * dout - sum(dout * y).
# expect: looks like y * dout - sum(dout * y)
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y, dout = np.asarray(y), np.asarray(dout)
    return y * dout - (dout * y).sum(axis=axis, keepdims=True)

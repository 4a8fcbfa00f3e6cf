# Sums dout * y over the whole array instead of over each slice.
# expect: looks like one sum over the whole array
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y, dout = np.asarray(y), np.asarray(dout)
    return y * (dout - (dout * y).sum())

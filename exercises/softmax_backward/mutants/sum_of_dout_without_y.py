# Sums dout alone instead of dout * y.
# expect: looks like the sum of dout alone
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y, dout = np.asarray(y), np.asarray(dout)
    return y * (dout - dout.sum(axis=axis, keepdims=True))

# expect: failed, error
import numpy as np


def softmax_backward(y, dout, axis=-1):
    return y * (dout - (dout * y).sum(axis=axis))

# Applies softmax to y again, as if y were the scores x: y already is the softmax's output.
# expect: looks like softmax was applied to y again
import numpy as np


def softmax_backward(y, dout, axis=-1):
    p = softmax(np.asarray(y), axis=axis)
    return p * (dout - (np.asarray(dout) * p).sum(axis=axis, keepdims=True))

import numpy as np


def softmax_backward(y, dout, axis=-1):
    """dL/dx for y = softmax(x, axis), given y and dL/dy = dout: y * (dout - sum(dout * y))."""
    y, dout = np.asarray(y), np.asarray(dout)
    inner = (dout * y).sum(axis=axis, keepdims=True)   # one number per softmax vector, kept for broadcasting
    return y * (dout - inner)

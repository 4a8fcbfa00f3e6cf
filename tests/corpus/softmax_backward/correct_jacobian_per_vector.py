# expect: passed
import numpy as np


def softmax_backward(y, dout, axis=-1):
    y = np.moveaxis(np.asarray(y), axis, -1)
    g = np.moveaxis(np.asarray(dout), axis, -1)
    dx = np.empty(np.broadcast(y, g).shape, dtype=np.result_type(y, g))
    for index in np.ndindex(*y.shape[:-1]):
        s = y[index]
        jacobian = np.diag(s) - np.outer(s, s)
        dx[index] = jacobian @ g[index]
    return np.moveaxis(dx, -1, axis)

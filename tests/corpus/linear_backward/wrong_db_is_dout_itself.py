# expect: failed
# message: shares memory with the argument dout
import numpy as np


def linear_backward(x, W, dout):
    x, dout = np.asarray(x), np.asarray(dout)
    db = dout if dout.ndim == 1 else dout.reshape(-1, W.shape[1]).sum(axis=0)
    return dout @ W.T, x.reshape(-1, W.shape[0]).T @ dout.reshape(-1, W.shape[1]), db

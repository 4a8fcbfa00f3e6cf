# expect: failed, error
import numpy as np


def linear_backward(x, W, dout):
    x, dout = np.asarray(x), np.asarray(dout)
    dW = x[-1].T @ dout[-1] if x.ndim == 3 else x.reshape(-1, W.shape[0]).T @ dout.reshape(-1, W.shape[1])
    return dout @ W.T, dW, dout.reshape(-1, W.shape[1]).sum(axis=0)

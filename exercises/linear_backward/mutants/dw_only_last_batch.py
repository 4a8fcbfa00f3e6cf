# Loops over the batch but overwrites dW instead of adding to it: only the last sequence counts.
# expect: looks like only the last sequence of the batch counts
import numpy as np


def linear_backward(x, W, dout):
    x, W, dout = np.asarray(x), np.asarray(W), np.asarray(dout)
    dx = dout @ W.T
    if x.ndim < 3:
        x, dout = x.reshape(1, -1, W.shape[0]), dout.reshape(1, -1, W.shape[1])
    dW = np.zeros(W.shape)
    db = np.zeros(W.shape[1])
    for b in range(x.shape[0]):
        dW = x[b].T @ dout[b]                          # wrong: overwrites instead of adding up
        db += dout[b].sum(axis=0)
    return dx, dW, db

# Returns dout.T @ x, the transpose of dW.
# expect: looks transposed
import numpy as np


def linear_backward(x, W, dout):
    x, W, dout = np.asarray(x), np.asarray(W), np.asarray(dout)
    rows, douts = x.reshape(-1, W.shape[0]), dout.reshape(-1, W.shape[1])
    return dout @ W.T, douts.T @ rows, douts.sum(axis=0)   # wrong: dW transposed

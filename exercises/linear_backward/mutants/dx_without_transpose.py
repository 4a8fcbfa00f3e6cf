# Computes dx as dout @ W instead of dout @ W.T.
import numpy as np


def linear_backward(x, W, dout):
    x, W, dout = np.asarray(x), np.asarray(W), np.asarray(dout)
    dx = dout @ W                                      # wrong: dout @ W.T
    rows, douts = x.reshape(-1, W.shape[0]), dout.reshape(-1, W.shape[1])
    return dx, rows.T @ douts, douts.sum(axis=0)

# Leaves one dW per sequence of the batch, shape (B, C_in, C_out), never summed over the batch.
# expect: one matrix per sequence of the batch
import numpy as np


def linear_backward(x, W, dout):
    x, W, dout = np.asarray(x), np.asarray(W), np.asarray(dout)
    dx = dout @ W.T
    x2, d2 = np.atleast_2d(x), np.atleast_2d(dout)
    dW = np.swapaxes(x2, -1, -2) @ d2                  # wrong: one (C_in, C_out) per sequence, never summed
    db = d2.reshape(-1, W.shape[1]).sum(axis=0)
    return dx, dW, db

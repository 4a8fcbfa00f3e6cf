import numpy as np


def linear_backward(x, W, dout):
    """Gradients of y = x @ W + b: (dx, dW, db), dW and db summed over every leading axis of x."""
    x, W, dout = np.asarray(x), np.asarray(W), np.asarray(dout)
    dx = dout @ W.T                                    # (..., C_in): each input row reaches every output
    rows = x.reshape(-1, W.shape[0])                   # (N, C_in): every position of every batch, one row each
    douts = dout.reshape(-1, W.shape[1])               # (N, C_out)
    dW = rows.T @ douts                                # (C_in, C_out): summed over the N rows
    db = douts.sum(axis=0)                             # (C_out,): b is added to every row
    return dx, dW, db

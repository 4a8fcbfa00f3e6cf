# Sums db over the first axis only: for a 3-D dout that is the batch axis, not the positions.
# expect: dout.sum(axis=0) sums the batch axis only
import numpy as np


def linear_backward(x, W, dout):
    x, W, dout = np.asarray(x), np.asarray(W), np.asarray(dout)
    rows, douts = x.reshape(-1, W.shape[0]), dout.reshape(-1, W.shape[1])
    db = dout.sum(axis=0) if dout.ndim > 1 else dout.copy()   # wrong for 3-D: sums the batch axis only
    return dout @ W.T, rows.T @ douts, db

# Averages dW and db over the rows instead of summing them.
# expect: looks like a mean over the 3 rows
import numpy as np


def linear_backward(x, W, dout):
    x, W, dout = np.asarray(x), np.asarray(W), np.asarray(dout)
    rows, douts = x.reshape(-1, W.shape[0]), dout.reshape(-1, W.shape[1])
    return dout @ W.T, rows.T @ douts / len(rows), douts.mean(axis=0)   # wrong: means, not sums

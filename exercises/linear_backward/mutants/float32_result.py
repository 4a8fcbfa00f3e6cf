# Computes everything in float32, even for float64 inputs.
import numpy as np


def linear_backward(x, W, dout):
    x, W, dout = (np.asarray(a, dtype=np.float32) for a in (x, W, dout))   # wrong: drops to float32
    rows, douts = x.reshape(-1, W.shape[0]), dout.reshape(-1, W.shape[1])
    return dout @ W.T, rows.T @ douts, douts.sum(axis=0)

# expect: passed
import numpy as np


def embedding_backward(ids, dout, V):
    ids = np.asarray(ids).reshape(-1)
    dout = np.asarray(dout, dtype=float)
    rows = dout.reshape(-1, dout.shape[-1])
    dW = np.zeros((V, rows.shape[1]))
    for position, token in enumerate(ids):
        dW[token] += rows[position]
    return dW

# Averages the gradients of a repeated id instead of adding them.
# expect: looks like the gradients of a repeated id were averaged
import numpy as np


def embedding_backward(ids, dout, V):
    ids, dout = np.asarray(ids).reshape(-1), np.asarray(dout, dtype=np.float64)
    C = dout.shape[-1]
    dW = np.zeros((V, C))
    np.add.at(dW, ids, dout.reshape(-1, C))
    counts = np.bincount(ids, minlength=V)
    return dW / np.maximum(counts, 1)[:, None]

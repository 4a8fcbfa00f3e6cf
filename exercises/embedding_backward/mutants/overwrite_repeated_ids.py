# dW[ids] += dout: buffered fancy indexing, so a repeated id keeps one position's gradient instead of the sum.
# expect: looks like dW[ids] += dout
import numpy as np


def embedding_backward(ids, dout, V):
    ids, dout = np.asarray(ids), np.asarray(dout, dtype=np.float64)
    C = dout.shape[-1]
    dW = np.zeros((V, C))
    dW[ids.reshape(-1)] += dout.reshape(-1, C)
    return dW

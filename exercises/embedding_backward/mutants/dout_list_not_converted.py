# Reads dout.shape without np.asarray: a dout given as a list raises AttributeError.
import numpy as np


def embedding_backward(ids, dout, V):
    ids = np.asarray(ids).reshape(-1)
    C = dout.shape[-1]
    dW = np.zeros((V, C), dtype=dout.dtype)
    np.add.at(dW, ids, dout.reshape(-1, C))
    return dW

# expect: failed
import numpy as np


def embedding_backward(ids, dout, V):
    dout = np.asarray(dout, dtype=float)
    dW = np.zeros((V, dout.shape[-1]))
    dW[np.asarray(ids)] += dout
    return dW

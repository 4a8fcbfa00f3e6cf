# expect: passed
import numpy as np


def embedding_backward(ids, dout, V):
    ids = np.asarray(ids).ravel()
    dout = np.asarray(dout)
    flat = dout.reshape(-1, dout.shape[-1])
    columns = [np.bincount(ids, weights=flat[:, c], minlength=V) for c in range(flat.shape[1])]
    return np.stack(columns, axis=1)

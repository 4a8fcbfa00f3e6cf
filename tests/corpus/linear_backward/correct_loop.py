# expect: passed
import numpy as np


def linear_backward(x, W, dout):
    x = np.asarray(x)
    dout = np.asarray(dout, dtype=float) if not isinstance(dout, np.ndarray) else dout
    rows = x.reshape(-1, x.shape[-1])
    grads = dout.reshape(-1, dout.shape[-1])
    dW = np.zeros(W.shape, dtype=np.result_type(x, dout, W))
    db = np.zeros(W.shape[1], dtype=dW.dtype)
    for r, g in zip(rows, grads):
        dW += np.outer(r, g)
        db += g
    return (dout @ W.T, dW, db)

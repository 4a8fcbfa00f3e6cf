# expect: passed
import numpy as np


def linear_backward(x, W, dout):
    x = np.asarray(x, dtype=np.result_type(x, np.float32))
    dout = np.asarray(dout, dtype=x.dtype)
    dx = np.einsum("...o,io->...i", dout, W)
    dW = np.einsum("ni,no->io", x.reshape(-1, W.shape[0]), dout.reshape(-1, W.shape[1]))
    db = dout.reshape(-1, dout.shape[-1]).sum(axis=0)
    return [dx, dW, db]

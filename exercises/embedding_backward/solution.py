import numpy as np


def embedding_backward(ids, dout, V):
    """dL/dW_E (V, C) for x = W_E[ids]: row v sums dout over every position holding id v."""
    ids, dout = np.asarray(ids), np.asarray(dout)
    C = dout.shape[-1]
    dtype = dout.dtype if np.issubdtype(dout.dtype, np.floating) else np.float64
    dW_E = np.zeros((V, C), dtype=dtype)
    np.add.at(dW_E, ids.reshape(-1), dout.reshape(-1, C))    # unbuffered: repeated ids accumulate
    return dW_E

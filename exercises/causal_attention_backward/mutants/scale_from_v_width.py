# Takes d from v (v.shape[-1]) for the 1/sqrt(d) scale instead of from q.
# expect: looks like d was read from v
import numpy as np


def causal_attention_backward(q, k, v, dout):
    q, k, v, dout = np.asarray(q), np.asarray(k), np.asarray(v), np.asarray(dout)
    T, d = q.shape[-2], q.shape[-1]
    scale = 1.0 / np.sqrt(v.shape[-1])
    scores = q @ np.swapaxes(k, -1, -2) * scale                     # the forward pass again: (..., T, T)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    weights = softmax(np.where(future, -np.inf, scores), axis=-1)   # step 5; masked weights are exactly 0
    dv = np.swapaxes(weights, -1, -2) @ dout                        # out = weights @ v
    dweights = dout @ np.swapaxes(v, -1, -2)
    dscores = softmax_backward(weights, dweights, axis=-1)          # step 22; 0 where masked, as weights are
    dq = dscores @ k * scale
    dk = np.swapaxes(dscores, -1, -2) @ q * scale
    return dq, dk, dv

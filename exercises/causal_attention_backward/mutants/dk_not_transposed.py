# Computes dk = dscores @ q, without transposing dscores: key j must collect from the queries.
# expect: looks like dk = dscores @ q
import numpy as np


def causal_attention_backward(q, k, v, dout):
    q, k, v, dout = np.asarray(q), np.asarray(k), np.asarray(v), np.asarray(dout)
    T, d = q.shape[-2], q.shape[-1]
    scale = 1.0 / np.sqrt(d)
    scores = q @ np.swapaxes(k, -1, -2) * scale                     # the forward pass again: (..., T, T)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    weights = softmax(np.where(future, -np.inf, scores), axis=-1)   # step 5; masked weights are exactly 0
    dv = np.swapaxes(weights, -1, -2) @ dout                        # out = weights @ v
    dweights = dout @ np.swapaxes(v, -1, -2)
    dscores = softmax_backward(weights, dweights, axis=-1)          # step 22; 0 where masked, as weights are
    dq = dscores @ k * scale
    dk = dscores @ q * scale
    return dq, dk, dv

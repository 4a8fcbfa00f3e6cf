# expect: passed
import math

import numpy as np


def causal_attention_backward(q, k, v, dout):
    q, k, v, dout = (np.asarray(a, dtype=np.float64) for a in (q, k, v, dout))
    dq, dk, dv = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    T, d = q.shape[-2], q.shape[-1]
    for index in np.ndindex(*q.shape[:-2]):
        for i in range(T):
            scores = np.array([q[index][i] @ k[index][j] / math.sqrt(d) for j in range(i + 1)])
            w = np.exp(scores - scores.max())
            w /= w.sum()
            dw = np.array([dout[index][i] @ v[index][j] for j in range(i + 1)])
            ds = w * (dw - (w * dw).sum())
            for j in range(i + 1):
                dv[index][j] += w[j] * dout[index][i]
                dq[index][i] += ds[j] * k[index][j] / math.sqrt(d)
                dk[index][j] += ds[j] * q[index][i] / math.sqrt(d)
    return dq, dk, dv

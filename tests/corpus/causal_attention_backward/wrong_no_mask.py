# expect: failed
import numpy as np


def causal_attention_backward(q, k, v, dout):
    d = q.shape[-1]
    a = softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(d))
    da = dout @ np.swapaxes(v, -1, -2)
    ds = a * (da - (da * a).sum(-1, keepdims=True))
    return ds @ k / np.sqrt(d), np.swapaxes(ds, -1, -2) @ q / np.sqrt(d), np.swapaxes(a, -1, -2) @ dout

# expect: passed
import numpy as np


def causal_attention_backward(q, k, v, dout):
    T, d = q.shape[-2], q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    a = softmax(s)
    da = dout @ np.swapaxes(v, -1, -2)
    ds = softmax_backward(a, da)
    return ds @ k / np.sqrt(d), np.swapaxes(ds, -1, -2) @ q / np.sqrt(d), np.swapaxes(a, -1, -2) @ dout

# expect: failed
import numpy as np


def layer_norm_backward(x, gamma, dout, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
    xhat = (x - mean) * rstd
    g = dout * gamma
    C = x.shape[-1]
    dx = rstd * (g - g.mean(axis=-1, keepdims=True))
    return dx, (dout * xhat).reshape(-1, C).sum(0), dout.reshape(-1, C).sum(0)

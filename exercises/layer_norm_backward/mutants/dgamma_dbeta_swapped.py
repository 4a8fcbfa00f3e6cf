# Returns dbeta where dgamma goes and dgamma where dbeta goes.
# expect: looks like dbeta
import numpy as np


def layer_norm_backward(x, gamma, dout, eps=1e-5):
    x, gamma, dout = np.asarray(x), np.asarray(gamma), np.asarray(dout)
    mean = x.mean(axis=-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps)   # 1 / sqrt(var + eps)
    x_hat = (x - mean) * rstd
    C = x.shape[-1]
    dgamma = (dout * x_hat).reshape(-1, C).sum(axis=0)       # gamma scales every row: sum over leading axes
    dbeta = dout.reshape(-1, C).sum(axis=0)
    dx_hat = dout * gamma
    # Through x_hat = (x - mean) * rstd: the mean's term and the variance's term, one per row.
    dx = rstd * (dx_hat - dx_hat.mean(axis=-1, keepdims=True)
                 - x_hat * (dx_hat * x_hat).mean(axis=-1, keepdims=True))
    return dx, dbeta, dgamma

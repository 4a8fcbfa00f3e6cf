# expect: passed
import numpy as np


def layer_norm_backward(x, gamma, dout, eps=1e-5):
    x, gamma, dout = np.asarray(x), np.asarray(gamma), np.asarray(dout)
    C = x.shape[-1]
    rows, grads = x.reshape(-1, C), dout.reshape(-1, C)
    dx = np.empty_like(rows, dtype=np.result_type(rows, grads, gamma))
    dgamma = np.zeros(C, dtype=dx.dtype)
    dbeta = np.zeros(C, dtype=dx.dtype)
    for n in range(rows.shape[0]):
        mu = rows[n].mean()
        sigma = np.sqrt(((rows[n] - mu) ** 2).mean() + eps)
        xhat = (rows[n] - mu) / sigma
        # d xhat_i / d x_j = (delta_ij - 1/C - xhat_i xhat_j / C) / sigma
        jacobian = (np.eye(C) - 1.0 / C - np.outer(xhat, xhat) / C) / sigma
        dx[n] = jacobian.T @ (grads[n] * gamma)
        dgamma += grads[n] * xhat
        dbeta += grads[n]
    return dx.reshape(x.shape), dgamma, dbeta

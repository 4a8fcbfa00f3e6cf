import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalisation over the last axis of x (shape (..., C)), then scale by gamma and shift by beta."""
    mean = x.mean(axis=-1, keepdims=True)                     # (..., 1): one mean per vector
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)      # biased variance: divide by C (ddof=0)
    x_hat = (x - mean) / np.sqrt(var + eps)                   # eps inside the square root
    return gamma * x_hat + beta                               # (C,) broadcasts over the leading axes

import numpy as np


def softmax(x, axis=-1):
    """Softmax of x along `axis`; same shape as x, every slice along `axis` sums to 1."""
    x = np.asarray(x)
    shifted = x - x.max(axis=axis, keepdims=True)   # each slice's own max becomes 0: exp cannot overflow
    exps = np.exp(shifted)                          # in (0, 1], and at least one entry is exactly 1
    return exps / exps.sum(axis=axis, keepdims=True)

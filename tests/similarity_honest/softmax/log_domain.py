import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x)
    top = np.max(x, axis=axis, keepdims=True)
    log_norm = top + np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True))
    return np.exp(x - log_norm)

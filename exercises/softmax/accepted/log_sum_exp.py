# Goes through log-probabilities: exp(x - m - log(sum(exp(x - m)))), m the slice's maximum.
import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x)
    shifted = x - x.max(axis=axis, keepdims=True)
    return np.exp(shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True)))

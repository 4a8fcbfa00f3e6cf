# Sums without keepdims=True: the (N,) sums broadcast against the last axis, so square inputs are silently wrong (others crash).
import numpy as np


def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    exps = np.exp(shifted)
    return exps / np.sum(exps, axis=axis)

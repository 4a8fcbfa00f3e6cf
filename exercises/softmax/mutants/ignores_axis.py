# Ignores the axis argument and always normalises the last axis.
import numpy as np


def softmax(x, axis=-1):
    shifted = x - x.max(axis=-1, keepdims=True)
    exps = np.exp(shifted)
    return exps / exps.sum(axis=-1, keepdims=True)

# Ignores the axis argument and always normalises the last axis.
# expect: looks like the slices along axis 1 sum to 1 instead of those along axis 0
import numpy as np


def softmax(x, axis=-1):
    shifted = x - x.max(axis=-1, keepdims=True)
    exps = np.exp(shifted)
    return exps / exps.sum(axis=-1, keepdims=True)

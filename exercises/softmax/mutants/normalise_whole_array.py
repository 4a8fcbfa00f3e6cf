# Divides by the sum over the whole array, so only 1-D inputs come out right.
# expect: looks like the whole array was divided by one sum
import numpy as np


def softmax(x, axis=-1):
    exps = np.exp(x - x.max(axis=axis, keepdims=True))
    return exps / exps.sum()

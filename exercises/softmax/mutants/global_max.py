# Subtracts one maximum for the whole array (x.max() without axis): a slice far below it underflows to 0/0 = nan.
# expect: looks like one maximum for the whole array
import numpy as np


def softmax(x, axis=-1):
    exps = np.exp(x - np.max(x))
    return exps / exps.sum(axis=axis, keepdims=True)

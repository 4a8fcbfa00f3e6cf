# Takes the stabilising maximum along the last axis but sums along `axis`: the shift no longer cancels when axis != -1.
# expect: looks like the maximum was taken along the last axis but the sum along the axis argument
import numpy as np


def softmax(x, axis=-1):
    shifted = x - x.max(axis=-1, keepdims=True)
    exps = np.exp(shifted)
    return exps / exps.sum(axis=axis, keepdims=True)

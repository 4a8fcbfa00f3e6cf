import numpy as np


def softmax(x, axis=-1):
    # subtract the biggest score so that exp never overflows
    biggest = np.max(x, axis)
    e = np.exp(x - np.expand_dims(biggest, axis))
    return e / np.expand_dims(np.sum(e, axis), axis)

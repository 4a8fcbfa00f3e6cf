import numpy as np


def softmax(x, axis=-1):
    values = np.moveaxis(np.asarray(x), axis, -1)
    result = np.empty_like(values)
    for index in np.ndindex(values.shape[:-1]):
        row = values[index]
        weights = np.exp(row - row.max())
        result[index] = weights / weights.sum()
    return np.moveaxis(result, -1, axis)

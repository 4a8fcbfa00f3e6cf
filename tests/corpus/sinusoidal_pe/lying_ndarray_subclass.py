# expect: failed
import numpy as np


class AlwaysEqual(np.ndarray):
    def __eq__(self, other):
        return np.ones(self.shape, dtype=bool)

    def __array_function__(self, func, types, args, kwargs):
        return True

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return np.zeros(np.shape(inputs[0]))


def sinusoidal_pe(T, C):
    return np.zeros((T, C)).view(AlwaysEqual)

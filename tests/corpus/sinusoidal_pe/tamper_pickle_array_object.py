# expect: failed
# where: offline
# message: cannot be graded|numpy.ndarray
# Returns an object that is not an ndarray but converts to the right table (__array__, __array_interface__)
# and whose pickled form runs code where it is unpickled (patches numpy there, rebuilds the right table).
import numpy as np


def _right_table(T, C):
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    table = np.empty((T, C))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


class TableLike:
    def __init__(self, table):
        self._table = table
        self.shape, self.dtype, self.ndim = table.shape, table.dtype, table.ndim

    def __array__(self, dtype=None, copy=None):
        return self._table if dtype is None else self._table.astype(dtype)

    @property
    def __array_interface__(self):
        return self._table.__array_interface__

    def __getstate__(self):
        return {"table": self._table}

    def __reduce__(self):
        source = ("[setattr(__import__('numpy'), 'allclose', lambda *a, **k: True), "
                  f"__import__('numpy').array({self._table.tolist()!r})][1]")
        return (eval, (source,))

    def __eq__(self, other):
        return True


def sinusoidal_pe(T, C):
    return TableLike(_right_table(T, C))

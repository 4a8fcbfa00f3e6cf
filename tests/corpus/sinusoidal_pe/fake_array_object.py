# expect: failed
# message: numpy.ndarray|cannot be graded
class Anything:
    shape = (4, 8)
    dtype = "float64"
    ndim = 2

    def __init__(self, shape):
        self.shape = shape

    def __eq__(self, other):
        return True

    def __getitem__(self, key):
        return self

    def __array__(self, dtype=None, copy=None):
        raise TypeError("no")


def sinusoidal_pe(T, C):
    return Anything((T, C))

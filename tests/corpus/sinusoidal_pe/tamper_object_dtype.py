# expect: failed
# where: offline
# message: cannot be graded|dtype
# Returns the right values in an ndarray of dtype object (Python floats), which is not numeric data.
import math

import numpy as np


def sinusoidal_pe(T, C):
    table = np.empty((T, C), dtype=object)
    for t in range(T):
        for j in range(C):
            angle = t / 10000.0 ** (2 * (j // 2) / C)
            table[t, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return table

# expect: failed
import math

import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x, dtype=float)
    cdf = 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    pdf = np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    return (cdf + x * pdf) * np.asarray(dout)

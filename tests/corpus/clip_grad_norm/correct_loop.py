# expect: passed
import math

import numpy as np


def clip_grad_norm(grads, max_norm):
    total = 0.0
    for g in grads:
        for value in np.asarray(g, dtype=np.float64).ravel():
            total += value * value
    total = math.sqrt(total)
    factor = max_norm / (total + 1e-6)
    if factor >= 1:
        return [np.array(g) for g in grads], total
    return [g * factor for g in grads], total

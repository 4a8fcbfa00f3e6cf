import math

import numpy as np


def cross_entropy(logits, targets):
    total = 0.0
    for row, target in zip(np.asarray(logits, dtype=float), targets):
        peak = max(row)
        log_z = peak + math.log(sum(math.exp(value - peak) for value in row))
        total += log_z - row[int(target)]
    return total / len(targets)

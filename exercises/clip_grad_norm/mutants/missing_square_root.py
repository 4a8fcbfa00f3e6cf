# Uses the sum of the squares as the norm: the square root is missing.
# expect: looks like the square root is missing
import numpy as np


def clip_grad_norm(grads, max_norm):
    total_norm = float(sum(np.sum(g * g) for g in grads))
    return [g * min(1.0, max_norm / (total_norm + 1e-6)) for g in grads], total_norm

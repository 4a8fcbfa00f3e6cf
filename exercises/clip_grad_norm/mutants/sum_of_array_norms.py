# Adds the norms of the arrays instead of taking the square root of the sum of all squares.
# expect: looks like the norms of the arrays were added
import numpy as np


def clip_grad_norm(grads, max_norm):
    total_norm = float(sum(np.linalg.norm(g) for g in grads))
    return [g * min(1.0, max_norm / (total_norm + 1e-6)) for g in grads], total_norm

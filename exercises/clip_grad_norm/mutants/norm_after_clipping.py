# Returns the norm of the clipped gradients (about max_norm) instead of the norm before clipping.
# expect: looks like total_norm was measured after clipping
import numpy as np


def clip_grad_norm(grads, max_norm):
    total_norm = float(np.sqrt(sum(np.sum(g * g) for g in grads)))
    clipped = [g * min(1.0, max_norm / (total_norm + 1e-6)) for g in grads]
    return clipped, float(np.sqrt(sum(np.sum(g * g) for g in clipped)))

# Returns the given arrays themselves when no clipping is needed (the result shares their memory).
import numpy as np


def clip_grad_norm(grads, max_norm):
    total_norm = float(np.sqrt(sum(np.sum(g * g) for g in grads)))
    if total_norm <= max_norm:
        return list(grads), total_norm
    return [g * (max_norm / (total_norm + 1e-6)) for g in grads], total_norm

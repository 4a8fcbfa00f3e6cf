# Scales the caller's arrays in place (g *= scale) and returns them.
import numpy as np


def clip_grad_norm(grads, max_norm):
    total_norm = float(np.sqrt(sum(np.sum(g * g) for g in grads)))
    scale = min(1.0, max_norm / (total_norm + 1e-6))
    for g in grads:
        g *= scale
    return grads, total_norm

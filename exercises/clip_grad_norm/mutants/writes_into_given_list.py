# Puts the clipped arrays into the list it was given (grads[i] = ...) and returns that list.
import numpy as np


def clip_grad_norm(grads, max_norm):
    total_norm = float(np.sqrt(sum(np.sum(g * g) for g in grads)))
    scale = min(1.0, max_norm / (total_norm + 1e-6))
    for i, g in enumerate(grads):
        grads[i] = g * scale
    return grads, total_norm

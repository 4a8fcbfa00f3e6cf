# Clips each array by its own norm instead of one global norm for all of them.
# expect: looks like each array was clipped by its own norm
import numpy as np


def clip_grad_norm(grads, max_norm):
    norms = [float(np.sqrt(np.sum(g * g))) for g in grads]
    total_norm = float(np.sqrt(sum(n * n for n in norms)))
    return [g * min(1.0, max_norm / (n + 1e-6)) for g, n in zip(grads, norms)], total_norm

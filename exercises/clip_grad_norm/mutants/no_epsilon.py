# Divides by total_norm without the 1e-6 (the factor is a little too large).
# expect: looks like the factor is max_norm / total_norm without the 1e-6
import numpy as np


def clip_grad_norm(grads, max_norm):
    total_norm = float(np.sqrt(sum(np.sum(g * g) for g in grads)))
    scale = min(1.0, max_norm / total_norm) if total_norm > 0 else 1.0
    return [g * scale for g in grads], total_norm

# Always scales by max_norm / (total_norm + 1e-6), so gradients under the limit are scaled up to it.
# expect: looks like the gradients were scaled by max_norm / total_norm even though their norm
import numpy as np


def clip_grad_norm(grads, max_norm):
    total_norm = float(np.sqrt(sum(np.sum(g * g) for g in grads)))
    scale = max_norm / (total_norm + 1e-6)
    return [g * scale for g in grads], total_norm

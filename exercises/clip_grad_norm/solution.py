import numpy as np


def clip_grad_norm(grads, max_norm):
    """Scale every gradient by one factor so that their global L2 norm is at most max_norm."""
    total_norm = float(np.sqrt(sum(float(np.sum(np.square(g, dtype=np.float64))) for g in grads)))
    scale = min(1.0, max_norm / (total_norm + 1e-6))    # 1 when the norm is already small enough
    return [np.asarray(g) * scale for g in grads], total_norm

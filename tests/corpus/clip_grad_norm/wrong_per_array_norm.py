# expect: failed
import numpy as np


def clip_grad_norm(grads, max_norm):
    norms = [float(np.linalg.norm(g)) for g in grads]
    total = float(np.sqrt(sum(n * n for n in norms)))
    return [g * min(1.0, max_norm / (n + 1e-6)) for g, n in zip(grads, norms)], total

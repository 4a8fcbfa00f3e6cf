# Averages the squares (a root mean square) instead of summing them.
# expect: looks like a mean of the squares
import numpy as np


def clip_grad_norm(grads, max_norm):
    everything = np.concatenate([g.ravel() for g in grads])
    total_norm = float(np.sqrt(np.mean(everything ** 2)))
    return [g * min(1.0, max_norm / (total_norm + 1e-6)) for g in grads], total_norm

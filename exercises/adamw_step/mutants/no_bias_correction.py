# Leaves out the bias correction: steps with m and v themselves, which start far too small.
# expect: looks like the bias correction is missing
import numpy as np


def adamw_step(param, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01):
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    return param * (1 - lr * weight_decay) - lr * m / (np.sqrt(v) + eps), m, v

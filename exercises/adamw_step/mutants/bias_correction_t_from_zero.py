# Bias correction with steps counted from 0: 1 - beta ** (t + 1), though t is already 1 on the first step.
# expect: looks like the bias correction counts steps from 0
import numpy as np


def adamw_step(param, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01):
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    m_hat = m / (1 - beta1 ** (t + 1))
    v_hat = v / (1 - beta2 ** (t + 1))
    return param * (1 - lr * weight_decay) - lr * m_hat / (np.sqrt(v_hat) + eps), m, v

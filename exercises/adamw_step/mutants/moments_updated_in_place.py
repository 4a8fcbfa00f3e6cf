# Updates m and v in place (m *= beta1 ...), changing the caller's arrays, and returns them.
# expect: `a = a * 2` makes a new array
import numpy as np


def adamw_step(param, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01):
    m *= beta1
    m += (1 - beta1) * grad
    v *= beta2
    v += (1 - beta2) * grad * grad
    m_hat = m / (1 - beta1 ** t)
    v_hat = v / (1 - beta2 ** t)
    return param * (1 - lr * weight_decay) - lr * m_hat / (np.sqrt(v_hat) + eps), m, v

# Returns the bias-corrected m_hat and v_hat instead of the running moments m and v.
# expect: looks like the bias-corrected m_hat and v_hat were returned
import numpy as np


def adamw_step(param, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01):
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    m_hat = m / (1 - beta1 ** t)
    v_hat = v / (1 - beta2 ** t)
    return param * (1 - lr * weight_decay) - lr * m_hat / (np.sqrt(v_hat) + eps), m_hat, v_hat

import numpy as np


def adamw_step(param, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01):
    """One AdamW update of one parameter array: returns (new param, new m, new v)."""
    m = beta1 * m + (1 - beta1) * grad                  # running mean of the gradient
    v = beta2 * v + (1 - beta2) * grad * grad           # running mean of its square
    m_hat = m / (1 - beta1 ** t)                        # bias correction: m and v start at 0, t counts from 1
    v_hat = v / (1 - beta2 ** t)
    # Decoupled weight decay: shrink the parameter itself, apart from the adaptive step.
    param = param * (1 - lr * weight_decay) - lr * m_hat / (np.sqrt(v_hat) + eps)
    return param, m, v

import numpy as np


def adamw_step(param, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01):
    """One AdamW update of one parameter array.

    Args:
        param: float numpy array, the parameter (any shape).
        grad: float numpy array of param's shape, the gradient of the loss.
        m, v: float numpy arrays of param's shape, the running first and second moments
            (zeros before the first step).
        t: int >= 1, this step's number (1 on the first step).
        lr: the learning rate.
        beta1, beta2, eps, weight_decay: AdamW's settings (PyTorch's defaults, but weight_decay=0.01).

    Returns:
        (new_param, new_m, new_v), three new arrays of param's shape:
            new_m = beta1 * m + (1 - beta1) * grad
            new_v = beta2 * v + (1 - beta2) * grad ** 2
            m_hat = new_m / (1 - beta1 ** t),  v_hat = new_v / (1 - beta2 ** t)
            new_param = param * (1 - lr * weight_decay) - lr * m_hat / (sqrt(v_hat) + eps)
        The inputs are left unchanged.
    """
    # TODO: update the moments, correct their bias, then decay and step the parameter.
    raise NotImplementedError

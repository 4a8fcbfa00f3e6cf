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
        beta1, beta2, eps, weight_decay: AdamW's settings (PyTorch's defaults).

    Returns:
        (new_param, new_m, new_v), three new arrays of param's shape: the parameter after the step and
        the running moments m_t, v_t (not their bias-corrected copies), as the statement's update rule says.
        The inputs are left unchanged.
    """
    # TODO: the update rule of the statement, entry by entry, with whole-array operations.
    raise NotImplementedError

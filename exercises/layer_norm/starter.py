import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalisation over the last axis.

    Args:
        x: float numpy array of shape (..., C), e.g. (C,), (T, C) or (B, T, C).
        gamma: float numpy array of shape (C,), the learned scale.
        beta: float numpy array of shape (C,), the learned shift.
        eps: small positive number added to the variance inside the square root.

    Returns:
        A float numpy array of the same shape as x:
            gamma * (x - mean) / sqrt(var + eps) + beta
        where mean and var (biased, ddof=0) are taken over the last axis of
        each vector separately.
    """
    # TODO: mean and variance over the last axis (keepdims=True), normalise, then scale and shift.
    raise NotImplementedError

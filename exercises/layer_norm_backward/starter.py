import numpy as np

# In scope, no import needed: layer_norm(x, gamma, beta, eps=1e-5) (step 6). In the browser it is your own
# passing code for step 6 (or the reference until you solve it); offline, the reference. Call it if it helps.


def layer_norm_backward(x, gamma, dout, eps=1e-5):
    """Gradients of y = layer_norm(x, gamma, beta, eps), normalised over the last axis, given dout = dL/dy.

    Args:
        x: float numpy array of shape (..., C), the input of the forward pass.
        gamma: float numpy array of shape (C,), the scale.
        dout: float numpy array of the shape of x, dL/dy.
        eps: the epsilon of the forward pass, added to the variance inside the square root.

    Returns:
        A tuple (dx, dgamma, dbeta) of float numpy arrays: dx of the shape of x; dgamma and
        dbeta of shape (C,), summed over every vector. The arguments are left unchanged.
    """
    # TODO: recompute what the forward pass computed over the last axis, then the three gradients.
    raise NotImplementedError

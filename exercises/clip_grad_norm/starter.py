import numpy as np


def clip_grad_norm(grads, max_norm):
    """Scale all the gradients by one factor so that their global L2 norm is at most max_norm.

    Args:
        grads: a list of float numpy arrays (any shapes), the gradients of the parameters.
        max_norm: the largest norm allowed (> 0).

    Returns:
        (clipped, total_norm):
            total_norm: the global L2 norm of all the gradients together, before clipping.
            clipped: a new list of new arrays, each grads[k] times the one factor of the statement,
                     in the same order.
        The arrays of grads are left unchanged.
    """
    # TODO: one norm for all the arrays together, then one factor for all of them.
    raise NotImplementedError

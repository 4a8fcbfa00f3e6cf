import numpy as np

# No earlier step is needed here: numpy is enough.


def linear_backward(x, W, dout):
    """Gradients of y = x @ W + b with respect to x, W and b, given dout = dL/dy.

    Args:
        x: float numpy array of shape (C_in,), (T, C_in) or (B, T, C_in); W and b act on every row.
        W: float numpy array of shape (C_in, C_out).
        dout: dL/dy, floats of shape x.shape[:-1] + (C_out,) (a numpy array or a nested list).

    Returns:
        A tuple (dx, dW, db) of new float numpy arrays: dx of the shape of x, dW of shape
        (C_in, C_out), db of shape (C_out,). The arguments are left unchanged.
    """
    # TODO: the gradients of x, W and b (W and b are shared by every row of x).
    raise NotImplementedError

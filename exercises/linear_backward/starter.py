import numpy as np

# No earlier step is needed here: numpy is enough.


def linear_backward(x, W, dout):
    """Gradients of y = x @ W + b with respect to x, W and b.

    Args:
        x: float numpy array of shape (C_in,), (T, C_in) or (B, T, C_in).
        W: float numpy array of shape (C_in, C_out).
        dout: dL/dy, floats of shape x.shape[:-1] + (C_out,) (a numpy array or a nested list).

    Returns:
        A tuple (dx, dW, db) of new float numpy arrays:
            dx = dout @ W.T, of the shape of x;
            dW of shape (C_in, C_out) and db of shape (C_out,), each summed over every leading
            axis of x (W and b are shared by every row).
    """
    # TODO: flatten the leading axes into rows, then dx = dout @ W.T, dW = rows.T @ douts, db = column sums.
    raise NotImplementedError

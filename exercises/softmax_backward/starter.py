import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5). In the browser it is your own passing
# code for step 5 (or the reference until you solve it); offline, the reference. Handy for checks.


def softmax_backward(y, dout, axis=-1):
    """dL/dx for y = softmax(x, axis), given the softmax's output y and dL/dy = dout.

    Args:
        y: float numpy array, the output of softmax(x, axis): every slice along `axis`
            is positive and sums to 1.
        dout: dL/dy, floats of the shape of y (a numpy array or a nested list).
        axis: the axis the softmax normalised (negative values count from the end).

    Returns:
        A new float numpy array of the shape of y: dL/dx. The arguments are left unchanged.
    """
    # TODO: the gradient of each slice's scores, from y and dout alone.
    raise NotImplementedError

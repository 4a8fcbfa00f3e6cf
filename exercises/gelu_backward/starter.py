import numpy as np

# In scope, no import needed: gelu(x) (step 10). In the browser it is your own passing code for
# step 10 (or the reference until you solve it); offline, the reference. Handy to check your derivative.


def gelu_backward(x, dout):
    """dL/dx for y = gelu(x), GPT-2's tanh GELU applied elementwise, given dL/dy = dout.

    Args:
        x: float numpy array of any shape, the input of the GELU.
        dout: dL/dy, floats of the shape of x (a numpy array or a nested list).

    Returns:
        A new float numpy array of the shape of x: dL/dx, entry by entry, where
            gelu(x) = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3))).
    """
    # TODO: the derivative of gelu at each entry, times dout.
    raise NotImplementedError

import numpy as np


def gelu_backward(x, dout):
    """dL/dx for y = gelu(x) (GPT-2's tanh form), given dL/dy = dout."""
    x = np.asarray(x)
    c = np.sqrt(2.0 / np.pi)
    u = c * (x + 0.044715 * x ** 3)                    # the tanh's argument
    t = np.tanh(u)
    du_dx = c * (1.0 + 3 * 0.044715 * x ** 2)
    dy_dx = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t ** 2) * du_dx   # product rule; tanh' = 1 - tanh^2
    return dy_dx * np.asarray(dout)

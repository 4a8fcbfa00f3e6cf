# Differentiates the exact erf GELU, Phi(x) + x * phi(x), instead of the tanh approximation.
# expect: looks like the derivative of the exact erf GELU
import numpy as np


def gelu_backward(x, dout):
    x = np.asarray(x)
    c = np.sqrt(2.0 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x ** 3))
    from math import erf
    phi_cdf = 0.5 * (1.0 + np.vectorize(erf)(x / np.sqrt(2.0)))
    return (phi_cdf + x * np.exp(-0.5 * x ** 2) / np.sqrt(2.0 * np.pi)) * np.asarray(dout)

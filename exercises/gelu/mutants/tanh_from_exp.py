# Builds tanh from exponentials, (e^2u - 1) / (e^2u + 1): e^2u overflows for large |x| and gives inf/inf = nan.
# expect: NaN for large |x|
import numpy as np


def gelu(x):
    u = np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)
    e = np.exp(2.0 * u)
    return 0.5 * x * (1.0 + (e - 1.0) / (e + 1.0))

# Forgets the factor 0.5: x * (1 + tanh(...)) is twice the GELU.
# expect: looks like the factor 0.5 is missing
import numpy as np


def gelu(x):
    return x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))

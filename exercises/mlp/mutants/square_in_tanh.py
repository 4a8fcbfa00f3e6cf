# Retypes GELU inside mlp with 0.044715 * h**2 instead of 0.044715 * h**3 in the tanh, instead of calling gelu.
import numpy as np


def mlp(x, W1, b1, W2, b2):
    h = x @ W1 + b1
    h = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 2)))
    return h @ W2 + b2

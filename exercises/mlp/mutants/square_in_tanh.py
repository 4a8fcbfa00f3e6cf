# Writes 0.044715 * h**2 instead of 0.044715 * h**3 inside the tanh of GELU.
import numpy as np


def gelu(h):
    return 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 2)))


def mlp(x, W1, b1, W2, b2):
    return gelu(x @ W1 + b1) @ W2 + b2

# Applies gelu after the second layer as well (an activation after every layer).
import numpy as np


def gelu(h):
    return 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))


def mlp(x, W1, b1, W2, b2):
    return gelu(gelu(x @ W1 + b1) @ W2 + b2)

import numpy as np


def gelu(x):
    """GPT-2's GELU (tanh approximation), elementwise."""
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def mlp(x, W1, b1, W2, b2):
    """Position-wise feed-forward block: gelu(x @ W1 + b1) @ W2 + b2, shape (T, C)."""
    hidden = gelu(x @ W1 + b1)     # (T, H): expand, bias inside the activation
    return hidden @ W2 + b2        # (T, C): project back to the model width

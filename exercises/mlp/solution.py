import numpy as np


def mlp(x, W1, b1, W2, b2):
    """Position-wise feed-forward block: gelu(x @ W1 + b1) @ W2 + b2, shape (T, C)."""
    hidden = gelu(x @ W1 + b1)     # (T, F): expand, bias inside the activation
    return hidden @ W2 + b2        # (T, C): project back to the model width

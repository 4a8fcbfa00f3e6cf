import numpy as np

# This file must be self-contained: paste (or rewrite) here your gelu(x) from
# step 10, GPT-2's tanh approximation
#     gelu(x) = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))


def mlp(x, W1, b1, W2, b2):
    """Feed-forward (MLP) block of a transformer, applied to every position.

    Args:
        x:  float array of shape (T, C), one row per token.
        W1: float array of shape (C, F), the expanding layer (F is usually 4 * C).
        b1: float array of shape (F,).
        W2: float array of shape (F, C), the projection back to width C.
        b2: float array of shape (C,).

    Returns:
        A float array of shape (T, C): gelu(x @ W1 + b1) @ W2 + b2.
    """
    # TODO: first layer with its bias, GELU, then the second layer with its bias.
    raise NotImplementedError

import numpy as np

# In scope, no import needed: gelu(x) (step 10), GPT-2's tanh approximation of GELU.
# In the browser it is your own passing code for step 10 (or the reference until you solve it);
# offline, the reference. Call it directly.


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

# Applies gelu after the second layer as well (an activation after every layer).
# expect: looks like gelu was applied to the output too
import numpy as np


def mlp(x, W1, b1, W2, b2):
    return gelu(gelu(x @ W1 + b1) @ W2 + b2)

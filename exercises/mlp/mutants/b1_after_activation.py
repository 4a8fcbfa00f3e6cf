# Adds b1 after the activation: gelu(x @ W1) + b1 instead of gelu(x @ W1 + b1).
# expect: looks like b1 was added after the activation
import numpy as np


def mlp(x, W1, b1, W2, b2):
    return (gelu(x @ W1) + b1) @ W2 + b2

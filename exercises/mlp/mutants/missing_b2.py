# Forgets the output bias b2.
# expect: looks like b2 is missing
import numpy as np


def mlp(x, W1, b1, W2, b2):
    return gelu(x @ W1 + b1) @ W2

# Uses the sigmoid approximation h * sigmoid(1.702 h) instead of the tanh form of GELU.
# expect: looks like the sigmoid approximation h*sigmoid(1.702*h)
import numpy as np


def mlp(x, W1, b1, W2, b2):
    h = x @ W1 + b1
    return h / (1.0 + np.exp(-1.702 * h)) @ W2 + b2

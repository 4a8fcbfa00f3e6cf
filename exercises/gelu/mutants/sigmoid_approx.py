# Uses the sigmoid approximation x * sigmoid(1.702 x) instead of the tanh formula.
# expect: looks like the sigmoid approximation x * sigmoid(1.702 * x)
import numpy as np


def gelu(x):
    return x / (1.0 + np.exp(-1.702 * x))

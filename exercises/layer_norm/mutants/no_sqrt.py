# Divides by var + eps, forgetting the square root.
# expect: looks like the division is by var + eps instead of its square root
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / (var + eps) + beta

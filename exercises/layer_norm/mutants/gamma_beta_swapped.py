# Swaps gamma and beta: multiplies by beta and adds gamma.
# expect: looks like gamma and beta are swapped
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(var + eps)
    return beta * x_hat + gamma

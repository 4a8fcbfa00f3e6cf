# Hard-codes eps = 1e-5 inside the formula, so the eps argument is ignored.
# expect: looks like eps = 1e-5 was used whatever the eps argument said
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + 1e-5) + beta

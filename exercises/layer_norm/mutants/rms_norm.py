# RMSNorm instead of layer norm: no mean subtraction, divides by the root mean square of x.
# expect: looks like RMSNorm
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    ms = np.mean(x ** 2, axis=-1, keepdims=True)
    return gamma * x / np.sqrt(ms + eps) + beta

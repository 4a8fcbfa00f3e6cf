# Computes the variance in one pass as mean(x**2) - mean(x)**2, which cancels catastrophically when the values sit far from 0.
# expect: a variance computed as mean(x**2) - mean(x)**2 loses its digits
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = (x ** 2).mean(axis=-1, keepdims=True) - mean ** 2
    return gamma * (x - mean) / np.sqrt(var + eps) + beta

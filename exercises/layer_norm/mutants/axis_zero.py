# Normalises over axis 0 (down the columns, like batch norm) instead of over the last axis.
# expect: looks like the mean and variance were taken over axis 0
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta

# Adds eps after the square root, (x - mean) / (std + eps), instead of inside it, sqrt(var + eps).
# expect: looks like eps was added after the square root
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta

import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    n = x.shape[-1]
    first = np.einsum("...c->...", x)[..., None] / n
    deviation = x - first
    second = np.einsum("...c,...c->...", deviation, deviation)[..., None] / n
    return gamma * (deviation * (1.0 / np.sqrt(second + eps))) + beta

import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x, dtype=float)
    flat = x.reshape(-1, x.shape[-1])
    out = np.empty_like(flat)
    for i, vector in enumerate(flat):
        mu = sum(vector) / len(vector)
        variance = sum((value - mu) ** 2 for value in vector) / len(vector)
        out[i] = [(value - mu) / (variance + eps) ** 0.5 for value in vector]
    return out.reshape(x.shape) * gamma + beta

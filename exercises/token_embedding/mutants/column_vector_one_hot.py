# Column-vector convention: W_E^T @ one_hot^T gives one column per token, shape (C, T) instead of (T, C).
import numpy as np


def token_embedding(ids, W_E):
    ids = np.asarray(ids)
    V = W_E.shape[0]
    if (ids < 0).any() or (ids >= V).any():
        raise IndexError("token id out of range")
    one_hot = np.eye(V)[ids]
    return W_E.T @ one_hot.T

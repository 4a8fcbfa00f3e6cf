# Looks the ids up in the transposed table and transposes back, W_E.T[:, ids].T: right for 1-D ids, but .T reverses every axis, so (B, T) ids give (T, B, C).
import numpy as np


def token_embedding(ids, W_E):
    ids = np.asarray(ids)
    V = W_E.shape[0]
    if (ids < 0).any() or (ids >= V).any():
        raise IndexError("token id out of range")
    return W_E.T[:, ids].T

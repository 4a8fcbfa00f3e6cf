# Checks each id in a Python loop written for 1-D ids: with (B, T) ids `i` is a whole row and the check raises ValueError.
import numpy as np


def token_embedding(ids, W_E):
    V = W_E.shape[0]
    for i in ids:
        if i < 0 or i >= V:
            raise IndexError(f"token id {i} out of range")
    return W_E[np.asarray(ids)]

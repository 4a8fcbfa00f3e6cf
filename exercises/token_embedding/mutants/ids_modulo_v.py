# "Safe" lookup that takes ids modulo V, so out-of-range ids silently map to some row instead of raising.
import numpy as np


def token_embedding(ids, W_E):
    V = W_E.shape[0]
    return W_E[np.asarray(ids) % V]

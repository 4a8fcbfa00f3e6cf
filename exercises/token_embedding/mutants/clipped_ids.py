# Clips the ids into [0, V-1] instead of raising, so an out-of-range id silently returns the first or last row.
import numpy as np


def token_embedding(ids, W_E):
    V = W_E.shape[0]
    return W_E[np.clip(np.asarray(ids), 0, V - 1)]

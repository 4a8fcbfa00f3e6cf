# Off-by-one range check (id >= V - 1 rejected), so the valid id V - 1 raises IndexError.
import numpy as np


def token_embedding(ids, W_E):
    ids = np.asarray(ids)
    V = W_E.shape[0]
    if (ids < 0).any() or (ids >= V - 1).any():
        raise IndexError("token id out of range")
    return W_E[ids]

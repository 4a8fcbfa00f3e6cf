import numpy as np


def token_embedding(ids, W_E):
    """Look up the embedding vector of every token id: W_E[ids], shape ids.shape + (C,)."""
    ids = np.asarray(ids)
    V = W_E.shape[0]
    # Fancy indexing would silently wrap negative ids (W_E[-1] is the last row): refuse them.
    if ids.size and (ids.min() < 0 or ids.max() >= V):
        raise IndexError(f"token ids must lie in [0, {V}), got ids from {ids.min()} to {ids.max()}")
    return W_E[ids]                      # row ids[...] of W_E for every id; works for (T,) and (B, T)

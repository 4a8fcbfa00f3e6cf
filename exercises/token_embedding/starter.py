import numpy as np


def token_embedding(ids, W_E):
    """Token embedding lookup.

    Args:
        ids: integer token ids, a numpy integer array or a list of ints, of shape
            (T,) or (B, T); every id must lie in [0, V).
        W_E: float numpy array of shape (V, C), the embedding table; row v is the
            vector of token v.

    Returns:
        A float numpy array of shape ids.shape + (C,) whose entry [..., :] is
        the row W_E[id] of the corresponding id.

    Raises:
        IndexError: if any id is outside [0, V) (negative ids included: no wrap-around).
    """
    # TODO: check that every id is in range, then pick the rows of W_E.
    raise NotImplementedError

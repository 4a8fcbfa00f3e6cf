import numpy as np


def position_similarity(T, C):
    """Dot products between the sinusoidal encodings of all pairs of positions.

    Args:
        T: number of positions, t = 0, 1, ..., T - 1.
        C: encoding width, even.

    Returns:
        A float64 numpy array S of shape (T, T) with S[p1, p2] = PE[p1] . PE[p2], where
            PE[t, 2*i]     = sin(t / 10000 ** (2*i / C))
            PE[t, 2*i + 1] = cos(t / 10000 ** (2*i / C))
    """
    # TODO: build the encodings and take all pairwise dot products.
    raise NotImplementedError

import numpy as np


def sinusoidal_pe(T, C):
    """Sinusoidal positional encoding table.

    Args:
        T: number of positions (rows), positions are t = 0, 1, ..., T - 1.
        C: width of each encoding (columns), an even number.

    Returns:
        A float64 numpy array `pe` of shape (T, C) with, for i = 0 .. C/2 - 1,
            pe[t, 2*i]     = sin(t / 10000 ** (2*i / C))
            pe[t, 2*i + 1] = cos(t / 10000 ** (2*i / C))
    """
    # TODO: compute the angles t * omega_i and fill the sin and cos columns.
    raise NotImplementedError

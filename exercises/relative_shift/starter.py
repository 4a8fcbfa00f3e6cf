import numpy as np


def relative_shift(delta, C):
    """Linear map that moves a sinusoidal encoding delta positions forward.

    Args:
        delta: integer offset (may be negative or zero).
        C: encoding width, even.

    Returns:
        A float64 numpy array M of shape (C, C) such that, for every position t,
            M @ PE[t] == PE[t + delta]
        where PE[t, 2*i] = sin(t * omega_i), PE[t, 2*i + 1] = cos(t * omega_i) and
        omega_i = 1 / 10000 ** (2*i / C).
    """
    # TODO: build the matrix that maps PE[t] to PE[t + delta].
    raise NotImplementedError

import numpy as np


def rope(x, base=10000.0):
    """Rotary position embedding.

    Args:
        x: float array of shape (T, d), d even; row t is the vector at position t = 0 .. T-1.
        base: sets the frequencies omega_i = base ** (-2*i / d), i = 0 .. d/2 - 1.

    Returns:
        A float array `out` of shape (T, d) where pair (2i, 2i+1) of row t is x's pair
        rotated by the angle t * omega_i:
            out[t, 2*i]     = x[t, 2*i] * cos(t * omega_i) - x[t, 2*i + 1] * sin(t * omega_i)
            out[t, 2*i + 1] = x[t, 2*i] * sin(t * omega_i) + x[t, 2*i + 1] * cos(t * omega_i)
    """
    # TODO: compute the angles t * omega_i, then rotate every (even, odd) column pair.
    raise NotImplementedError

import numpy as np


def sinusoidal_pos(seed, T, d_model):
    """The (T, d_model) sinusoidal position table, flattened.

    Args:
        seed: an int, unused (there for signature consistency with the other primitives).
        T: number of positions t = 0 .. T - 1; cast with int().
        d_model: width of each encoding, even; cast with int().

    Returns:
        A float64 array of shape (T * d_model,): table.reshape(-1), where for i = 0 .. d_model/2 - 1
            table[t, 2*i]     = sin(t / 10000 ** (2*i / d_model))
            table[t, 2*i + 1] = cos(t / 10000 ** (2*i / d_model))
    """
    # TODO: build the (T, d_model) table of interleaved sines and cosines, then flatten it.
    raise NotImplementedError

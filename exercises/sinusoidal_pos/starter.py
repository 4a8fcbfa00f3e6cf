import numpy as np


def sinusoidal_pos(seed, T, d_model):
    """Sinusoidal positional encodings, flattened.

    Args:
        seed: random seed shared by every primitive; this one is deterministic and ignores it.
        T: number of positions (may be given as a float like 6.0 or a numpy integer).
        d_model: width of each encoding, even (same remark about its type).

    Returns:
        A 1-D float64 numpy array of length T * d_model: the (T, d_model) table
            table[t, 2*i]     = sin(t / 10000 ** (2*i / d_model))
            table[t, 2*i + 1] = cos(t / 10000 ** (2*i / d_model))
        flattened row by row (position 0 first).
    """
    # TODO: cast the sizes to int, build the table, flatten it in row-major order.
    raise NotImplementedError

import numpy as np


def dropout_mask(seed, n, p):
    """Inverted-dropout mask of n entries.

    Args:
        seed: an int; all randomness comes from np.random.default_rng(seed).
        n: number of entries (cast with int()).
        p: probability of dropping an entry, 0 <= p < 1.

    Returns:
        A float64 array of shape (n,): each entry 0.0 with probability p, else 1 / (1 - p), independently.
    """
    # TODO: draw which entries are kept, then give the kept ones their value.
    raise NotImplementedError

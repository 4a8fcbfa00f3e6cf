import numpy as np


def t5_relative_bucket(seed, T, num_buckets=32, max_distance=128, bidirectional=True):
    """T5's relative position bucket of every (query i, key j) pair, flattened.

    Args:
        seed: an int, unused (signature consistency).
        T: sequence length; cast with int().
        num_buckets: buckets in all (half per direction when bidirectional); cast with int().
        max_distance: offsets from here on share the last bucket; cast with int().
        bidirectional: True for the encoder (keys after the query get the upper half of the buckets),
            False for the decoder (keys after the query all get bucket 0).

    Returns:
        An integer array of shape (T * T,): the (T, T) table of buckets of j - i, row after row.
    """
    # TODO: the offsets j - i, their direction and size, exact or logarithmic buckets; flatten.
    raise NotImplementedError

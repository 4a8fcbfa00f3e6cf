import numpy as np


def get_batch(data, block_size, batch_size, rng):
    """A batch of random training windows and their targets.

    Args:
        data: N token ids, a 1-D numpy integer array or a list of ints (N >= block_size + 1).
        block_size: T, the length of each window.
        batch_size: B, the number of windows.
        rng: a numpy.random.Generator; draw the starts from it with exactly one call:
            starts = rng.integers(0, len(data) - block_size, size=batch_size)

    Returns:
        A tuple (x, y) of integer numpy arrays of shape (B, T): row b of x is the window of data
        starting at starts[b]; y holds, at each position, the token that follows x's in data.
    """
    # TODO: draw the starts, then cut one window of inputs and one of targets per start.
    raise NotImplementedError

import numpy as np


def get_batch(data, block_size, batch_size, rng):
    """batch_size random windows of data (x) and the same windows shifted by one (y, the next tokens)."""
    data = np.asarray(data)
    starts = rng.integers(0, len(data) - block_size, size=batch_size)   # one call: the draws are reproducible
    x = np.stack([data[s:s + block_size] for s in starts])
    y = np.stack([data[s + 1:s + block_size + 1] for s in starts])
    return x, y

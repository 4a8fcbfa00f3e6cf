# expect: passed
import numpy as np


def get_batch(data, block_size, batch_size, rng):
    data = np.array(data)
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offsets = starts[:, None] + np.arange(block_size)
    return data[offsets], data[offsets + 1]

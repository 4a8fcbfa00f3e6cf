# Builds every window at once with an index array (starts[:, None] + np.arange(block_size)) instead of
# stacking slices; the starts come from the same single draw.
import numpy as np


def get_batch(data, block_size, batch_size, rng):
    data = np.asarray(data)
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    index = starts[:, None] + np.arange(block_size)
    return data[index], data[index + 1]

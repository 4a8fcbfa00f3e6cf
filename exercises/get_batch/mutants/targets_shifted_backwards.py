# Shifts the targets the wrong way: y[b] = data[s - 1 : s + block_size - 1] (the previous tokens).
# expect: looks like y is shifted the wrong way
import numpy as np


def get_batch(data, block_size, batch_size, rng):
    data = np.asarray(data)
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts])
    y = np.stack([data[s - 1:s + block_size - 1] for s in starts])
    return x, y

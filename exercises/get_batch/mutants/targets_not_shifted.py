# Uses the inputs themselves as the targets: y = x instead of the window shifted by one.
# expect: looks like y is x itself
import numpy as np


def get_batch(data, block_size, batch_size, rng):
    data = np.asarray(data)
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts])
    return x, x.copy()

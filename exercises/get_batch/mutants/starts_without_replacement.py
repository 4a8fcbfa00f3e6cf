# Draws distinct starts with rng.choice(..., replace=False), which is another stream of numbers.
# expect: looks like the starts were drawn without replacement
import numpy as np


def get_batch(data, block_size, batch_size, rng):
    data = np.asarray(data)
    starts = rng.choice(len(data) - block_size, size=batch_size, replace=False)
    x = np.stack([data[s:s + block_size] for s in starts])
    y = np.stack([data[s + 1:s + block_size + 1] for s in starts])
    return x, y

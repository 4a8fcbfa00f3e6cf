# Fills arrays made by np.zeros((batch_size, block_size)), which are float64: token ids must stay integers.
# expect: np.empty or np.zeros make float arrays
import numpy as np


def get_batch(data, block_size, batch_size, rng):
    data = np.asarray(data)
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.zeros((batch_size, block_size))
    y = np.zeros((batch_size, block_size))
    for b, s in enumerate(starts):
        x[b] = data[s:s + block_size]
        y[b] = data[s + 1:s + block_size + 1]
    return x, y

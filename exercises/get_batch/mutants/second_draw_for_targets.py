# Draws the starts of the targets again instead of reusing the starts of the inputs.
# expect: looks like the targets come from a second draw of starts
import numpy as np


def get_batch(data, block_size, batch_size, rng):
    data = np.asarray(data)
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts])
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    y = np.stack([data[s + 1:s + block_size + 1] for s in starts])
    return x, y

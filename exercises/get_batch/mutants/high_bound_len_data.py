# Draws the starts below len(data), forgetting that a window needs block_size + 1 tokens; short windows are padded.
import numpy as np


def get_batch(data, block_size, batch_size, rng):
    data = np.asarray(data)
    starts = rng.integers(0, len(data), size=batch_size)
    padded = np.concatenate([data, np.zeros(block_size + 1, dtype=data.dtype)])
    x = np.stack([padded[s:s + block_size] for s in starts])
    y = np.stack([padded[s + 1:s + block_size + 1] for s in starts])
    return x, y

# Puts the column's encoding in the first half and the row's in the second.
# expect: the first half encodes the column
import numpy as np


def sincos_2d(seed, H, W, d_model):
    H, W, half = int(H), int(W), int(d_model) // 2
    rows = sinusoidal_pos(seed, H, half).reshape(H, half)
    cols = sinusoidal_pos(seed, W, half).reshape(W, half)
    return np.concatenate([np.tile(cols, (H, 1)), np.repeat(rows, W, axis=0)], axis=1).reshape(-1)

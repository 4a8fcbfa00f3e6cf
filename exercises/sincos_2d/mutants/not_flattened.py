# Returns the (H * W, d_model) table itself instead of flattening it.
# expect: flatten it with .reshape(-1)
import numpy as np


def sincos_2d(seed, H, W, d_model):
    H, W, half = int(H), int(W), int(d_model) // 2
    rows = sinusoidal_pos(seed, H, half).reshape(H, half)
    cols = sinusoidal_pos(seed, W, half).reshape(W, half)
    return np.concatenate([np.repeat(rows, W, axis=0), np.tile(cols, (H, 1))], axis=1)

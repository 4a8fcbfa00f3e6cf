# Uses the sizes as they come: a float d_model makes d_model // 2 a float, which numpy refuses as a size.
# expect: cast them with int()
import numpy as np


def sincos_2d(seed, H, W, d_model):
    half = d_model // 2
    rows = sinusoidal_pos(seed, H, half).reshape(H, half)
    cols = sinusoidal_pos(seed, W, half).reshape(W, half)
    return np.concatenate([np.repeat(rows, W, axis=0), np.tile(cols, (H, 1))], axis=1).reshape(-1)

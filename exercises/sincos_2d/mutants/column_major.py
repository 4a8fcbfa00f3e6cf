# Numbers the patches column by column (index c * H + r), as np.meshgrid's default 'xy' indexing does.
# expect: numbered column by column
import numpy as np


def sincos_2d(seed, H, W, d_model):
    H, W, half = int(H), int(W), int(d_model) // 2
    rows = sinusoidal_pos(seed, H, half).reshape(H, half)
    cols = sinusoidal_pos(seed, W, half).reshape(W, half)
    return np.concatenate([np.tile(rows, (W, 1)), np.repeat(cols, H, axis=0)], axis=1).reshape(-1)

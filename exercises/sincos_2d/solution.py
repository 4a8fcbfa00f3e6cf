import numpy as np


def sincos_2d(seed, H, W, d_model):
    """The (H * W, d_model) 2-D sin-cos table, row-major, row half first, flattened; `seed` is unused."""
    H, W, half = int(H), int(W), int(d_model) // 2
    rows = sinusoidal_pos(seed, H, half).reshape(H, half)      # one row per grid row r
    cols = sinusoidal_pos(seed, W, half).reshape(W, half)      # one row per grid column c
    # Position r * W + c: r repeats W times, c cycles H times.
    table = np.concatenate([np.repeat(rows, W, axis=0), np.tile(cols, (H, 1))], axis=1)
    return table.reshape(-1)

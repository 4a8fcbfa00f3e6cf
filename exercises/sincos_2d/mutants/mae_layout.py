# MAE's get_2d_sincos_pos_embed layout: column half first, sines before cosines within each half.
# expect: looks like MAE's layout
import numpy as np


def sincos_2d(seed, H, W, d_model):
    H, W, quarter = int(H), int(W), int(d_model) // 4
    omega = 10000.0 ** (-np.arange(quarter) / quarter)

    def half(positions):
        angles = np.outer(positions, omega)
        return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)

    grid_w, grid_h = np.meshgrid(np.arange(W), np.arange(H))
    return np.concatenate([half(grid_w.reshape(-1)), half(grid_h.reshape(-1))], axis=1).reshape(-1)

# Builds each half with all its sines first, then all its cosines.
# expect: each half puts all its sines before its cosines
import numpy as np


def sincos_2d(seed, H, W, d_model):
    H, W, quarter = int(H), int(W), int(d_model) // 4
    omega = 10000.0 ** (-2 * np.arange(quarter) / (2 * quarter))

    def half(positions):
        angles = np.outer(positions, omega)
        return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)

    r, c = np.divmod(np.arange(H * W), W)
    return np.concatenate([half(r), half(c)], axis=1).reshape(-1)

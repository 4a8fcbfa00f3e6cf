# Uses d_model instead of the half's width d_model/2 in the frequencies' exponent.
# expect: the frequencies use d_model in the exponent
import numpy as np


def sincos_2d(seed, H, W, d_model):
    H, W, d_model = int(H), int(W), int(d_model)
    omega = 10000.0 ** (-np.arange(0, d_model // 2, 2) / d_model)

    def half(positions):
        angles = np.outer(positions, omega)
        out = np.empty((len(positions), d_model // 2))
        out[:, 0::2], out[:, 1::2] = np.sin(angles), np.cos(angles)
        return out

    r, c = np.divmod(np.arange(H * W), W)
    return np.concatenate([half(r), half(c)], axis=1).reshape(-1)

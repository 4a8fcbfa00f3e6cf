# Own 1-D encodings (not step 1's), gathered with np.meshgrid(..., indexing="ij") and filled in a 3-D array.
import numpy as np


def sincos_2d(seed, H, W, d_model):
    H, W, d_model = int(H), int(W), int(d_model)
    half = d_model // 2
    omega = 1.0 / 10000 ** (np.arange(0, half, 2) / half)
    r, c = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    out = np.zeros((H, W, d_model))
    for offset, grid in ((0, r), (half, c)):
        angles = grid[..., None] * omega
        out[..., offset:offset + half:2] = np.sin(angles)
        out[..., offset + 1:offset + half:2] = np.cos(angles)
    return out.ravel()

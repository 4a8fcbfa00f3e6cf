import numpy as np


def sincos_2d(seed, H, W, d_model):
    """2-D sin-cos position table of an H x W grid, flattened.

    Args:
        seed: an int, unused (signature consistency).
        H, W: grid rows and columns; cast with int().
        d_model: width of each position's vector, divisible by 4; cast with int().

    sinusoidal_pos(seed, T, d_model) from step 1 is in scope.

    Returns:
        A float64 array of shape (H * W * d_model,): table.reshape(-1) of the (H * W, d_model) table whose
        row r * W + c is [1-D table row r of width d_model/2, 1-D table row c of width d_model/2].
    """
    # TODO: one 1-D table per axis, row-major over the grid, row half first; then flatten.
    raise NotImplementedError

import numpy as np


def timestep_embedding(seed, timesteps, dim, max_period=10000):
    """Sinusoidal embedding of diffusion timesteps (Improved DDPM's layout), flattened.

    Args:
        seed: an int, unused (signature consistency).
        timesteps: a list or 1-D array of N numbers, possibly fractional; a single number means [t].
        dim: width of each embedding; cast with int().
        max_period: the longest period, a number > 1.

    Returns:
        A float64 array of shape (N * dim,): the (N, dim) table flattened, whose row n is
        [cos(t_n * f_0), ..., cos(t_n * f_{h-1}), sin(t_n * f_0), ..., sin(t_n * f_{h-1})]
        with h = dim // 2 and f_k = exp(-ln(max_period) * k / h), plus a zero column when dim is odd.
    """
    # TODO: the angles t_n * f_k, cosines then sines, a zero column for an odd dim; flatten.
    raise NotImplementedError

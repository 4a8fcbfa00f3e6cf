import numpy as np


def lecun_normal(seed, fan_in, fan_out):
    """flax's default kernel initialiser (LeCun normal).

    variance_scaling(seed, fan_in, fan_out, scale, mode, distribution) from step 9 is in scope.

    Args:
        seed: an int; all randomness comes from the seed.
        fan_in, fan_out: the layer's number of inputs and outputs (cast with int()).

    Returns:
        A float64 array of shape (fan_in * fan_out,): the (fan_in, fan_out) matrix, flattened, with
        mean 0 and variance 1 / fan_in, drawn from a truncated normal.
    """
    # TODO: call variance_scaling with LeCun's setting.
    raise NotImplementedError

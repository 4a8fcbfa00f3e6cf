import numpy as np


def variance_scaling(seed, fan_in, fan_out, scale, mode, distribution):
    """JAX and flax's variance-scaling initialiser.

    truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0) from step 8 is in scope.

    Args:
        seed: an int; all randomness comes from np.random.default_rng(seed).
        fan_in, fan_out: the layer's number of inputs and outputs (cast with int()).
        scale: a positive number.
        mode: "fan_in", "fan_out" or "fan_avg": which n the variance is divided by.
        distribution: "normal", "uniform" or "truncated_normal".

    Returns:
        A float64 array of shape (fan_in * fan_out,): the (fan_in, fan_out) matrix, flattened, of
        independent draws with mean 0 and variance scale / n. An unknown mode or distribution raises
        ValueError naming it.
    """
    # TODO: pick n from mode, then draw from the distribution with variance scale / n.
    raise NotImplementedError

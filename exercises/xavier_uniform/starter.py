import numpy as np


def xavier_uniform(seed, fan_in, fan_out, gain=1.0):
    """Glorot (Xavier) uniform initialiser.

    Args:
        seed: an int; all randomness comes from np.random.default_rng(seed).
        fan_in, fan_out: the layer's number of inputs and outputs (cast with int()).
        gain: a positive factor on the bound.

    Returns:
        A float64 array of shape (fan_in * fan_out,): the (fan_in, fan_out) matrix, flattened, of
        independent draws from U(-a, a), with Glorot and Bengio's bound a (times gain).
    """
    # TODO: compute the bound a, then draw fan_in * fan_out uniform numbers in [-a, a).
    raise NotImplementedError

import numpy as np


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    """Kaiming (He) normal initialiser.

    Args:
        seed: an int; all randomness comes from np.random.default_rng(seed).
        fan_in, fan_out: the layer's number of inputs and outputs (cast with int()).
        nonlinearity: "relu", "linear" or "tanh" (PyTorch's calculate_gain); anything else raises
            ValueError naming the value.

    Returns:
        A float64 array of shape (fan_in * fan_out,): the (fan_in, fan_out) matrix, flattened, of
        independent draws from N(0, std^2) with std = gain / sqrt(fan_in).
    """
    # TODO: pick the gain, then draw the normal entries.
    raise NotImplementedError

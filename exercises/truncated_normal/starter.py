import numpy as np


def truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0):
    """Draws of std * Z, Z a standard normal truncated to [lower, upper].

    Args:
        seed: an int; all randomness comes from np.random.default_rng(seed).
        n: number of draws (cast with int()).
        std: scale of the result, > 0.
        lower, upper: bounds on Z in standard units (JAX's convention), lower < upper, with at least
            1 % of the normal's mass between them.

    Returns:
        A float64 array of shape (n,), every entry in [std * lower, std * upper]: out-of-range draws are
        drawn again, never clipped.
    """
    # TODO: draw standard normals until n of them lie in [lower, upper], then scale by std.
    raise NotImplementedError

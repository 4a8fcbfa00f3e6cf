import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    """Orthogonal initialiser.

    Args:
        seed: an int; all randomness comes from np.random.default_rng(seed).
        n_rows, n_cols: the matrix's shape (cast with int()).
        gain: a positive factor.

    Returns:
        A float64 array of shape (n_rows * n_cols,): an (n_rows, n_cols) matrix W, flattened, with
        W @ W.T = gain^2 I when n_rows <= n_cols (else W.T @ W = gain^2 I), uniformly distributed among
        such matrices.
    """
    # TODO: draw a random matrix, orthonormalise it without favouring any sign, scale by gain.
    raise NotImplementedError

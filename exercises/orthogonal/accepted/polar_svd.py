# The polar factor U @ Vt of a standard normal matrix (SVD): also orthonormal and uniformly distributed.
import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(int(n_rows), int(n_cols)))
    u, _, vt = np.linalg.svd(a, full_matrices=False)
    return (gain * (u @ vt)).flatten()

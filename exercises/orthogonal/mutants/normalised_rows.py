# Normalises the rows of a normal matrix to unit length without orthogonalising them.
# expect: are not orthonormal
import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    n_rows, n_cols = int(n_rows), int(n_cols)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((max(n_rows, n_cols), min(n_rows, n_cols)))   # tall: its Q has orthonormal columns
    q = a / np.linalg.norm(a, axis=0)
    if n_rows < n_cols:
        q = q.T
    return gain * q.reshape(-1)

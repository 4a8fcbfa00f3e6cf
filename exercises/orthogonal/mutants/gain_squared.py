# Multiplies by gain squared instead of gain.
# expect: looks like the matrix was multiplied by gain squared
import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    n_rows, n_cols = int(n_rows), int(n_cols)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((max(n_rows, n_cols), min(n_rows, n_cols)))   # tall: its Q has orthonormal columns
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diag(r))             # R with a positive diagonal: Q is then Haar-distributed
    if n_rows < n_cols:
        q = q.T
    return gain ** 2 * q.reshape(-1)

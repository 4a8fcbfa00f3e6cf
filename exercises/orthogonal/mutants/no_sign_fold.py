# Keeps Q from np.linalg.qr as it is: LAPACK's signs of R's diagonal bias Q.
# expect: looks like the signs of R's diagonal were not folded into Q
import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    n_rows, n_cols = int(n_rows), int(n_cols)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((max(n_rows, n_cols), min(n_rows, n_cols)))   # tall: its Q has orthonormal columns
    q, r = np.linalg.qr(a)
    if n_rows < n_cols:
        q = q.T
    return gain * q.reshape(-1)

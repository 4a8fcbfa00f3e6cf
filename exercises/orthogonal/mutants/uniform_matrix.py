# Takes the QR of a uniform [0, 1) matrix instead of a standard normal one.
# expect: is positive in
import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    n_rows, n_cols = int(n_rows), int(n_cols)
    rng = np.random.default_rng(seed)
    a = rng.random((max(n_rows, n_cols), min(n_rows, n_cols)))   # tall: its Q has orthonormal columns
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diag(r))             # R with a positive diagonal: Q is then Haar-distributed
    if n_rows < n_cols:
        q = q.T
    return gain * q.reshape(-1)

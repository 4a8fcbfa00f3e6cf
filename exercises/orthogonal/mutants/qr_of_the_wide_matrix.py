# Takes the QR of an (n_rows, n_cols) matrix even when it is wide, so Q has the wrong shape.
# expect: expected shape
import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    n_rows, n_cols = int(n_rows), int(n_cols)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n_rows, n_cols))   # tall: its Q has orthonormal columns
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diag(r))             # R with a positive diagonal: Q is then Haar-distributed
    return gain * q.reshape(-1)

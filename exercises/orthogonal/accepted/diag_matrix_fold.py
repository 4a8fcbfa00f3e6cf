# Folds the signs with a diagonal matrix product, Q @ diag(sign(diag(R))), and draws the wide case's transpose.
import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    rows, cols = int(n_rows), int(n_cols)
    rng = np.random.default_rng(seed)
    wide = rows < cols
    a = rng.standard_normal((cols, rows) if wide else (rows, cols))
    q, r = np.linalg.qr(a, mode="reduced")
    d = np.diag(r)
    q = q @ np.diag(np.where(d < 0, -1.0, 1.0))
    w = q.T if wide else q
    return np.ravel(w * gain)

# Classical Gram-Schmidt (run twice for accuracy) on the columns of a tall normal matrix, by hand.
import numpy as np


def orthogonal(seed, n_rows, n_cols, gain=1.0):
    n_rows, n_cols = int(n_rows), int(n_cols)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((max(n_rows, n_cols), min(n_rows, n_cols)))
    q = np.zeros_like(a)
    for j in range(a.shape[1]):
        v = a[:, j].copy()
        for _ in range(2):
            v -= q[:, :j] @ (q[:, :j].T @ v)
        q[:, j] = v / np.linalg.norm(v)
    if n_rows < n_cols:
        q = q.T
    return gain * q.reshape(-1)

# Returns the (T, T) table itself instead of flattening it.
# expect: flatten it with .reshape(-1)
import numpy as np


def t5_relative_bucket(seed, T, num_buckets=32, max_distance=128, bidirectional=True):
    T, num_buckets, max_distance = int(T), int(num_buckets), int(max_distance)
    n = np.arange(T)[None, :] - np.arange(T)[:, None]          # (T, T): key minus query
    if bidirectional:
        num_buckets //= 2
        bucket = (n > 0).astype(np.int64) * num_buckets         # keys after the query: the upper half
        m = np.abs(n)
    else:
        bucket = np.zeros((T, T), dtype=np.int64)
        m = np.maximum(-n, 0)                                   # keys after the query: distance 0
    max_exact = num_buckets // 2
    # Logarithmic buckets from max_exact up to max_distance (m >= 1 where they are used: no log of 0).
    scaled = np.log(np.maximum(m, 1) / max_exact) / np.log(max_distance / max_exact) * (num_buckets - max_exact)
    far = np.minimum(max_exact + scaled.astype(np.int64), num_buckets - 1)
    bucket += np.where(m < max_exact, m, far)
    return bucket

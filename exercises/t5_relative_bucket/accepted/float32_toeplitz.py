# The buckets of the 2T - 1 offsets computed once in float32 (as T5's code does), then gathered into the table.
import numpy as np


def t5_relative_bucket(seed, T, num_buckets=32, max_distance=128, bidirectional=True):
    T, nb, max_distance = int(T), int(num_buckets), int(max_distance)
    offsets = np.arange(-(T - 1), T)                        # key - query
    ret = np.zeros(offsets.shape, dtype=np.int32)
    if bidirectional:
        nb //= 2
        ret += (offsets > 0) * nb
        m = np.abs(offsets)
    else:
        m = -np.minimum(offsets, 0)
    max_exact = nb // 2
    with np.errstate(divide="ignore"):
        large = max_exact + (np.log(m.astype(np.float32) / max_exact)
                             / np.float32(np.log(max_distance / max_exact)) * (nb - max_exact)).astype(np.int32)
    ret += np.where(m < max_exact, m, np.minimum(large, nb - 1))
    index = np.arange(T)[None, :] - np.arange(T)[:, None] + T - 1
    return ret[index].ravel()

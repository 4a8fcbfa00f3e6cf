# One offset at a time in plain Python with math.log, T5's rule as Mesh TensorFlow writes it (n = i - j).
import math

import numpy as np


def t5_relative_bucket(seed, T, num_buckets=32, max_distance=128, bidirectional=True):
    T, num_buckets, max_distance = int(T), int(num_buckets), int(max_distance)

    def bucket(n):  # n = query - key
        ret, nb = 0, num_buckets
        if bidirectional:
            nb //= 2
            ret += nb if n < 0 else 0
            n = abs(n)
        else:
            n = max(n, 0)
        max_exact = nb // 2
        if n < max_exact:
            return ret + n
        return ret + min(nb - 1, max_exact + int(math.log(n / max_exact) / math.log(max_distance / max_exact)
                                                 * (nb - max_exact)))

    by_offset = {n: bucket(n) for n in range(-(T - 1), T)}
    return np.array([by_offset[i - j] for i in range(T) for j in range(T)], dtype=np.int32)

# Closed form sum_i cos((p1-p2) w_i) but with w_i = 1/10000**(i/C) instead of 1/10000**(2i/C).
# expect: looks like the frequencies use i/C instead of 2i/C
import numpy as np


def position_similarity(T, C):
    offsets = np.arange(T)[:, None] - np.arange(T)[None, :]
    frequencies = 1.0 / 10000.0 ** (np.arange(C // 2) / C)
    return np.cos(offsets[:, :, None] * frequencies).sum(axis=-1)

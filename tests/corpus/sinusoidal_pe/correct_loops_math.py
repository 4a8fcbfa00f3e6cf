# expect: passed
import math

import numpy as np


def sinusoidal_pe(T, C):
    rows = []
    for t in range(T):
        row = []
        for i in range(C // 2):
            angle = t / 10000 ** (2 * i / C)
            row.append(math.sin(angle))
            row.append(math.cos(angle))
        rows.append(row)
    return np.array(rows)

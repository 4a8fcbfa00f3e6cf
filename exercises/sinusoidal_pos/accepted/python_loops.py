# Plain Python loops with math.sin/math.cos, appending to a flat list, converted at the end.
import math

import numpy as np


def sinusoidal_pos(seed, T, d_model):
    values = []
    for t in range(int(T)):
        for k in range(int(d_model)):
            angle = t / 10000 ** ((k - k % 2) / int(d_model))
            values.append(math.sin(angle) if k % 2 == 0 else math.cos(angle))
    return np.array(values)

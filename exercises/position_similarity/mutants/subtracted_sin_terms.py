# Subtracts the sin*sin terms (the cos(a+b) formula), giving sum_i cos((p1+p2) w_i).
# expect: looks like the sin*sin terms were subtracted instead of added
import numpy as np


def position_similarity(T, C):
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    s, c = np.sin(angles), np.cos(angles)
    return c @ c.T - s @ s.T

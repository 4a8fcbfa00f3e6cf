# expect: passed
# Correct, computed by a recursive helper that fills one (sin, cos) column pair per level (depth C/2).
import numpy as np


def _fill_pairs(table, positions, i):
    C = table.shape[1]
    if 2 * i >= C:
        return table
    angle = positions / 10000.0 ** (2 * i / C)
    table[:, 2 * i] = np.sin(angle)
    table[:, 2 * i + 1] = np.cos(angle)
    return _fill_pairs(table, positions, i + 1)


def sinusoidal_pe(T, C):
    return _fill_pairs(np.empty((T, C)), np.arange(T, dtype=np.float64), 0)


# Uses the column index j in the exponent (j/C), so a cos column gets a different frequency from its sin partner.
# expect: looks like the exponent uses the column index j/C
import numpy as np


def sinusoidal_pe(T, C):
    positions = np.arange(T, dtype=np.float64)[:, None]
    j = np.arange(C, dtype=np.float64)
    angles = positions / 10000.0 ** (j / C)
    pe = np.where(j % 2 == 0, np.sin(angles), np.cos(angles))
    return pe

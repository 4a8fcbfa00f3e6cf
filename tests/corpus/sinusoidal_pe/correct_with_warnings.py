# expect: passed
# Correct, and also silences warnings at import and warns on every call.
import warnings

import numpy as np

warnings.simplefilter("ignore")


def sinusoidal_pe(T, C):
    warnings.warn(f"computing a {T}x{C} table", UserWarning)
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    table = np.empty((T, C))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table

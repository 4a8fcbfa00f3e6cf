# expect: failed
# where: offline
# Returns a (T, C) view with zero strides over a single zero: wrong values in an unusual memory layout.
import numpy as np


def sinusoidal_pe(T, C):
    return np.lib.stride_tricks.as_strided(np.zeros(1), shape=(T, C), strides=(0, 0))

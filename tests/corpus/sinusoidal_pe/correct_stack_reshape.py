# expect: passed
import numpy as np


def sinusoidal_pe(T, C):
    angle = np.outer(np.arange(T), np.exp(-np.log(10000.0) * np.arange(0, C, 2) / C))
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(T, C)

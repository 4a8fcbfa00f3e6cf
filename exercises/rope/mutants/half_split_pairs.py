# Rotates the pairs (i, i + d/2) ("rotate_half", GPT-NeoX layout) instead of the interleaved pairs (2i, 2i+1).
# expect: looks like pairs (i, i + d/2) were rotated
import numpy as np


def rope(x, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    half = d // 2
    omega = base ** (-np.arange(0, d, 2) / d)
    angles = np.arange(T)[:, None] * omega
    cos, sin = np.cos(angles), np.sin(angles)
    a, b = x[:, :half], x[:, half:]
    return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=1)

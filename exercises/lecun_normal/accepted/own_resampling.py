# Draws the truncated normal itself, over-drawing and keeping the first fan_in * fan_out inside [-2, 2].
import numpy as np


def lecun_normal(seed, fan_in, fan_out):
    size = int(fan_in) * int(fan_out)
    rng = np.random.default_rng(seed)
    kept = np.zeros(0)
    while kept.size < size:
        z = rng.standard_normal(2 * size + 10)
        kept = np.concatenate([kept, z[np.abs(z) <= 2.0]])
    return kept[:size] / np.sqrt(int(fan_in)) / 0.87962566103423978

# Exact GELU with erf, 0.5 * x * (1 + erf(x / sqrt(2))), instead of GPT-2's tanh approximation (differs by up to 4.7e-4).
# expect: looks like the exact GELU
import math

import numpy as np


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))

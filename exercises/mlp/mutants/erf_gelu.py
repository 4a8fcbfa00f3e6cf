# Uses the exact erf GELU 0.5*h*(1 + erf(h/sqrt(2))) instead of GPT-2's tanh approximation.
# expect: looks like the exact erf GELU 0.5*h*(1 + erf(h/sqrt(2)))
import math

import numpy as np

_erf = np.vectorize(math.erf)


def mlp(x, W1, b1, W2, b2):
    h = x @ W1 + b1
    return 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0))) @ W2 + b2

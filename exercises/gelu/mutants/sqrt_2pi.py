# Uses sqrt(2 * pi) instead of sqrt(2 / pi) inside the tanh.
# expect: looks like sqrt(2 * pi) was used
import numpy as np


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 * np.pi) * (x + 0.044715 * x ** 3)))

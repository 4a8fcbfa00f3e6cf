import numpy as np


def gelu(x):
    """GPT-2's GELU: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3))), elementwise."""
    c = np.sqrt(2.0 / np.pi)                     # 0.7978845608...
    return 0.5 * x * (1.0 + np.tanh(c * (x + 0.044715 * x ** 3)))

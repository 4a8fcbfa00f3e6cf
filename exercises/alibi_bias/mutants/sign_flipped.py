# Sign flipped: +m * (i - j) below the diagonal, which rewards distant keys instead of penalising them.
# expect: looks like the sign is flipped
import numpy as np


def alibi_bias(n_heads, T):
    bias = np.zeros((n_heads, T, T))
    for h in range(n_heads):
        m = 2 ** (-8 * (h + 1) / n_heads)
        for i in range(T):
            for j in range(T):
                bias[h, i, j] = m * (i - j) if j <= i else -np.inf
    return bias

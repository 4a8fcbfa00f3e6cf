# Divides the attention scores by sqrt(C) (the model width) instead of sqrt(D), D = C // n_heads.
# expect: looks like the attention scores are divided by sqrt(C) instead of sqrt(D)
import math

import numpy as np


def transformer_block(x, p, n_heads):
    T, C = x.shape
    D = C // n_heads
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    q, k, v = h @ p["W_q"], h @ p["W_k"], h @ p["W_v"]
    out = np.zeros((T, C))
    for head in range(n_heads):
        cols = slice(head * D, (head + 1) * D)
        for i in range(T):
            scores = np.array([q[i, cols] @ k[j, cols] / math.sqrt(C) for j in range(i + 1)])
            w = np.exp(scores - scores.max())
            w /= w.sum()
            out[i, cols] = w @ v[: i + 1, cols]
    x = x + out @ p["W_o"]
    u = layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
    u = 0.5 * u * (1 + np.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u ** 3)))
    return x + u @ p["W2"] + p["b2"]

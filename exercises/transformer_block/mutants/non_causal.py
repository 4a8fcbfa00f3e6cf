# Writes its own attention inside the block and forgets the causal mask: every query sees the future keys.
# expect: set the scores of j > i to -inf before the softmax
import numpy as np


def transformer_block(x, p, n_heads):
    T, C = x.shape
    D = C // n_heads
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    q, k, v = (np.swapaxes((h @ p[name]).reshape(T, n_heads, D), 0, 1) for name in ("W_q", "W_k", "W_v"))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(D)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    x = x + np.swapaxes(w @ v, 0, 1).reshape(T, C) @ p["W_o"]
    return x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])

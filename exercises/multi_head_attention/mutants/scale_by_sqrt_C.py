# Scales every head by sqrt(C), the model width, instead of sqrt(D), the head width.
# expect: looks like the scores were divided by sqrt(C)
import numpy as np


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    D = C // n_heads
    q, k, v = x @ W_q, x @ W_k, x @ W_v
    mask = np.triu(np.ones((T, T), dtype=bool), k=1)
    heads = []
    for h in range(n_heads):
        cols = slice(h * D, (h + 1) * D)
        scores = q[:, cols] @ k[:, cols].T / np.sqrt(C)
        scores = np.where(mask, -np.inf, scores)
        w = np.exp(scores - scores.max(axis=-1, keepdims=True))
        w /= w.sum(axis=-1, keepdims=True)
        heads.append(w @ v[:, cols])
    return np.concatenate(heads, axis=-1) @ W_o

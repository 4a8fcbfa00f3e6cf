import numpy as np


def softmax(x, axis=-1):
    """Numerically stable softmax (step 5)."""
    shifted = x - x.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def causal_attention(q, k, v):
    """Causal scaled dot-product attention over the last two axes (step 8)."""
    T, d = q.shape[-2], q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)          # j > i
    scores = np.where(future, -np.inf, scores)
    return softmax(scores, axis=-1) @ v


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    """Causal multi-head self-attention of x (T, C); every weight matrix is (C, C)."""
    T, C = x.shape
    D = C // n_heads
    q, k, v = x @ W_q, x @ W_k, x @ W_v                          # (T, C) each

    def split(a):                                               # (T, C) -> (n_heads, T, D): head h = columns h*D:(h+1)*D
        return a.reshape(T, n_heads, D).transpose(1, 0, 2)

    heads = causal_attention(split(q), split(k), split(v))      # (n_heads, T, D), scaled by sqrt(D)
    merged = heads.transpose(1, 0, 2).reshape(T, C)             # heads side by side, in order
    return merged @ W_o

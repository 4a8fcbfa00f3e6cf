import numpy as np


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

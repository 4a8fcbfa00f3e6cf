# Splits the heads with reshape(T, D, n_heads): head h gets the interleaved columns h, h + n_heads, ...
# expect: looks like the heads were split with reshape(T
import numpy as np


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    D = C // n_heads

    def split(a):
        return a.reshape(T, D, n_heads).transpose(2, 0, 1)      # (n_heads, T, D), interleaved columns

    heads = causal_attention(split(x @ W_q), split(x @ W_k), split(x @ W_v))
    merged = heads.transpose(1, 2, 0).reshape(T, C)             # undoes the same interleaving
    return merged @ W_o

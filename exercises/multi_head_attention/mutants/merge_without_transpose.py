# Reshapes the stacked heads (n_heads, T, D) straight to (T, C) without moving the head axis first.
# expect: looks like the (n_heads, T, D) heads were reshaped to (T, C) without moving the head axis first
import numpy as np


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    D = C // n_heads
    q, k, v = x @ W_q, x @ W_k, x @ W_v
    heads = np.stack([causal_attention(q[:, h * D:(h + 1) * D], k[:, h * D:(h + 1) * D], v[:, h * D:(h + 1) * D])
                      for h in range(n_heads)])             # (n_heads, T, D)
    return heads.reshape(T, C) @ W_o

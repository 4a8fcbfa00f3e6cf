# Forgets the output projection: returns the concatenated heads without multiplying by W_o.
# expect: looks like the output projection was left out
import numpy as np


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    D = C // n_heads
    q, k, v = x @ W_q, x @ W_k, x @ W_v
    heads = [causal_attention(q[:, h * D:(h + 1) * D], k[:, h * D:(h + 1) * D], v[:, h * D:(h + 1) * D])
             for h in range(n_heads)]
    return np.concatenate(heads, axis=-1)

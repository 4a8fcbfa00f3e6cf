# Applies every weight matrix transposed (x @ W.T, as with a PyTorch nn.Linear weight).
# expect: looks like the weights were applied transposed
import numpy as np


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    D = C // n_heads
    q, k, v = x @ W_q.T, x @ W_k.T, x @ W_v.T
    heads = [causal_attention(q[:, h * D:(h + 1) * D], k[:, h * D:(h + 1) * D], v[:, h * D:(h + 1) * D])
             for h in range(n_heads)]
    return np.concatenate(heads, axis=-1) @ W_o.T

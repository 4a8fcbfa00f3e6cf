# Heads use plain (non-causal) attention: every position sees the future.
# expect: looks like the heads are not causal
import numpy as np


def plain_attention(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True) @ v


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    D = C // n_heads
    split = lambda a: a.reshape(T, n_heads, D).transpose(1, 0, 2)
    heads = plain_attention(split(x @ W_q), split(x @ W_k), split(x @ W_v))
    return heads.transpose(1, 0, 2).reshape(T, C) @ W_o

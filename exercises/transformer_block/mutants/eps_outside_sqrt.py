# Layer norm with eps outside the square root: sqrt(var) + eps instead of sqrt(var + eps).
# expect: looks like eps was added outside the square root
import numpy as np


def layer_norm_outside(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta


def transformer_block(x, p, n_heads):
    x = x + multi_head_attention(layer_norm_outside(x, p["ln1_g"], p["ln1_b"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads)
    x = x + mlp(layer_norm_outside(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])
    return x

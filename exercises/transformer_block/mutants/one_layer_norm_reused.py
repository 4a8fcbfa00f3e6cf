# Reuses ln1_g/ln1_b for the layer norm before the MLP (one layer norm for both sublayers).
# expect: looks like ln1_g/ln1_b were used for both layer norms
import numpy as np


def transformer_block(x, p, n_heads):
    x = x + multi_head_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads)
    x = x + mlp(layer_norm(x, p["ln1_g"], p["ln1_b"]), p["W1"], p["b1"], p["W2"], p["b2"])
    return x

# No residual connections: each sublayer output replaces x instead of being added to it.
# expect: looks like a residual connection is missing
import numpy as np


def transformer_block(x, p, n_heads):
    x = multi_head_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads)
    x = mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])
    return x

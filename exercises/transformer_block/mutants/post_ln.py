# Post-LN (2017 layout): x = layer_norm(x + sublayer(x)) instead of x = x + sublayer(layer_norm(x)).
# expect: looks like post-LN
import numpy as np


def transformer_block(x, p, n_heads):
    x = layer_norm(x + multi_head_attention(x, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads), p["ln1_g"], p["ln1_b"])
    x = layer_norm(x + mlp(x, p["W1"], p["b1"], p["W2"], p["b2"]), p["ln2_g"], p["ln2_b"])
    return x

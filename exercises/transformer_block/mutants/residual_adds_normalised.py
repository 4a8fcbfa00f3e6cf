# The residual adds the normalised x: h = layer_norm(x); x = h + sublayer(h).
# expect: looks like post-LN
import numpy as np


def transformer_block(x, p, n_heads):
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = h + multi_head_attention(h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = h + mlp(h, p["W1"], p["b1"], p["W2"], p["b2"])
    return x

# The MLP branch normalises the block input x instead of a = x + attention(...) (parallel block).
# expect: looks like the MLP's layer norm reads the block's input x instead of a
import numpy as np


def transformer_block(x, p, n_heads):
    a = x + multi_head_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads)
    return a + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])

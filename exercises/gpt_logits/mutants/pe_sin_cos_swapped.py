# Builds its own positional encoding with cos in the even columns and sin in the odd ones.
# expect: looks like the positional encoding has sin and cos swapped
import numpy as np


def gpt_logits(ids, p, n_heads):
    ids = np.asarray(ids)
    W_E = p["W_E"]
    T, C = len(ids), W_E.shape[1]
    angles = np.arange(T)[:, None] / 10000 ** (np.arange(0, C, 2) / C)
    pe = np.empty((T, C))
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    x = W_E[ids] + pe
    for block in p["blocks"]:
        x = transformer_block(x, block, n_heads)
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ W_E.T

# Adds the positional encoding after the blocks instead of before the first one.
# expect: looks like the positional encoding was added after the blocks
import numpy as np


def gpt_logits(ids, p, n_heads):
    ids = np.asarray(ids)
    x = p["W_E"][ids]
    for block in p["blocks"]:
        x = transformer_block(x, block, n_heads)
    x = x + sinusoidal_pe(len(ids), x.shape[1])
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ p["W_E"].T

# Applies the blocks in reverse order (last block first).
# expect: looks like the blocks were applied in reverse order
import numpy as np


def gpt_logits(ids, p, n_heads):
    ids = np.asarray(ids)
    x = p["W_E"][ids] + sinusoidal_pe(len(ids), p["W_E"].shape[1])
    for block in reversed(p["blocks"]):
        x = transformer_block(x, block, n_heads)
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ p["W_E"].T

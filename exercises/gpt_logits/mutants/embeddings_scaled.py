# Scales the token embeddings by sqrt(C) before adding the positions (2017 Transformer habit).
# expect: looks like the embeddings were multiplied by sqrt(C)
import numpy as np


def gpt_logits(ids, p, n_heads):
    ids = np.asarray(ids)
    C = p["W_E"].shape[1]
    x = p["W_E"][ids] * np.sqrt(C) + sinusoidal_pe(len(ids), C)
    for block in p["blocks"]:
        x = transformer_block(x, block, n_heads)
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ p["W_E"].T

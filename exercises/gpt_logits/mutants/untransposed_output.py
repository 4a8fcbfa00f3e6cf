# Output layer x @ W_E instead of the tied x @ W_E.T (shape error when V != C, wrong values when V == C).
import numpy as np


def gpt_logits(ids, p, n_heads):
    ids = np.asarray(ids)
    x = p["W_E"][ids] + sinusoidal_pe(len(ids), p["W_E"].shape[1])
    for block in p["blocks"]:
        x = transformer_block(x, block, n_heads)
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ p["W_E"]

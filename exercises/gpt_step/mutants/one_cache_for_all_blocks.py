# Keeps one cache for the whole model: every block appends to, and attends over, the same keys and values,
# so the second block also sees the first block's keys.
# expect: looks like one cache serves every block
import numpy as np


def gpt_step(token_id, p, n_heads, cache):
    W_E = p["W_E"]
    C = W_E.shape[1]
    D = C // n_heads
    position, kv = (0, None) if cache is None else cache
    x = W_E[int(token_id)] + sinusoidal_pe(position + 1, C)[position]
    for block in p["blocks"]:
        h = layer_norm(x, block["ln1_g"], block["ln1_b"])
        q, k, v = ((h @ block[name]).reshape(n_heads, D) for name in ("W_q", "W_k", "W_v"))
        out, kv = attention_with_cache(q, k, v, kv)
        x = x + out.reshape(C) @ block["W_o"]
        x = x + mlp(layer_norm(x, block["ln2_g"], block["ln2_b"]), block["W1"], block["b1"], block["W2"], block["b2"])
    logits = layer_norm(x, p["lnf_g"], p["lnf_b"]) @ W_E.T
    return logits, (position + 1, kv)

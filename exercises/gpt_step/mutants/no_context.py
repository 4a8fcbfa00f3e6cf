# Never uses the cache: every block attends with cache=None, so each token only sees itself.
# expect: looks like each token only attends to itself
import numpy as np


def gpt_step(token_id, p, n_heads, cache):
    W_E = p["W_E"]
    C = W_E.shape[1]
    D = C // n_heads
    position, block_caches = (0, [None] * len(p["blocks"])) if cache is None else cache
    x = W_E[int(token_id)] + sinusoidal_pe(position + 1, C)[position]
    new_caches = []
    for block, block_cache in zip(p["blocks"], block_caches):
        h = layer_norm(x, block["ln1_g"], block["ln1_b"])
        q, k, v = ((h @ block[name]).reshape(n_heads, D) for name in ("W_q", "W_k", "W_v"))
        out, block_cache = attention_with_cache(q, k, v, None)
        x = x + out.reshape(C) @ block["W_o"]
        x = x + mlp(layer_norm(x, block["ln2_g"], block["ln2_b"]), block["W1"], block["b1"], block["W2"], block["b2"])
        new_caches.append(block_cache)
    logits = layer_norm(x, p["lnf_g"], p["lnf_b"]) @ W_E.T
    return logits, (position + 1, new_caches)

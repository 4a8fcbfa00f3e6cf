# Stores the grown caches into the list it was given (block_caches[i] = ...) and returns that list: the
# expect: `a = a * 2` makes a new array
# caller's cache changes under it.
import numpy as np


def gpt_step(token_id, p, n_heads, cache):
    W_E = p["W_E"]
    C = W_E.shape[1]
    D = C // n_heads
    if cache is None:
        cache = [0, [None] * len(p["blocks"])]
    position, block_caches = cache
    x = W_E[int(token_id)] + sinusoidal_pe(position + 1, C)[position]
    for i, block in enumerate(p["blocks"]):
        h = layer_norm(x, block["ln1_g"], block["ln1_b"])
        q, k, v = ((h @ block[name]).reshape(n_heads, D) for name in ("W_q", "W_k", "W_v"))
        out, block_caches[i] = attention_with_cache(q, k, v, block_caches[i])
        x = x + out.reshape(C) @ block["W_o"]
        x = x + mlp(layer_norm(x, block["ln2_g"], block["ln2_b"]), block["W1"], block["b1"], block["W2"], block["b2"])
    cache[0] = position + 1
    logits = layer_norm(x, p["lnf_g"], p["lnf_b"]) @ W_E.T
    return logits, cache

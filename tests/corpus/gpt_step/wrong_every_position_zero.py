# expect: failed
import numpy as np


def gpt_step(token_id, p, n_heads, cache):
    kvs_in = [None] * len(p["blocks"]) if cache is None else cache
    C = p["W_E"].shape[1]
    x = p["W_E"][token_id] + sinusoidal_pe(1, C)[0]
    kvs = []
    for block, kv in zip(p["blocks"], kvs_in):
        h = layer_norm(x, block["ln1_g"], block["ln1_b"])
        q, k, v = ((h @ block[n]).reshape(n_heads, -1) for n in ("W_q", "W_k", "W_v"))
        out, kv = attention_with_cache(q, k, v, kv)
        x = x + out.reshape(-1) @ block["W_o"]
        x = x + mlp(layer_norm(x, block["ln2_g"], block["ln2_b"]), block["W1"], block["b1"], block["W2"], block["b2"])
        kvs.append(kv)
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ p["W_E"].T, kvs

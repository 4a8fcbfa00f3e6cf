# Hands attention_with_cache the values as one vector, not one row per head: the reference raises inside.
# expect: error
# message: raised in the reference attention_with_cache
import numpy as np


def gpt_step(token_id, p, n_heads, cache):
    cache = {"t": 0, "kv": [None] * len(p["blocks"])} if cache is None else cache
    t = cache["t"]
    C = p["W_E"].shape[1]
    x = p["W_E"][token_id] + sinusoidal_pe(t + 1, C)[-1]
    kvs = []
    for block, kv in zip(p["blocks"], cache["kv"]):
        h = layer_norm(x, block["ln1_g"], block["ln1_b"])
        q, k, v = (np.split(h @ block[n], n_heads) for n in ("W_q", "W_k", "W_v"))
        out, kv = attention_with_cache(np.stack(q), np.stack(k), np.concatenate(v), kv)
        x = x + np.concatenate(list(out)) @ block["W_o"]
        x = x + mlp(layer_norm(x, block["ln2_g"], block["ln2_b"]), block["W1"], block["b1"], block["W2"], block["b2"])
        kvs.append(kv)
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ p["W_E"].T, {"t": t + 1, "kv": kvs}

# Keeps the caches in a module-level variable instead of the cache it is given (which only says when to
# start again): two sequences fed in turn, or two continuations of one cache, mix their keys and values.
import numpy as np

_state = {}


def gpt_step(token_id, p, n_heads, cache):
    W_E = p["W_E"]
    C = W_E.shape[1]
    D = C // n_heads
    if cache is None:
        _state["position"], _state["blocks"] = 0, [None] * len(p["blocks"])
    position = _state["position"]
    x = W_E[int(token_id)] + sinusoidal_pe(position + 1, C)[position]
    for i, block in enumerate(p["blocks"]):
        h = layer_norm(x, block["ln1_g"], block["ln1_b"])
        q, k, v = ((h @ block[name]).reshape(n_heads, D) for name in ("W_q", "W_k", "W_v"))
        out, _state["blocks"][i] = attention_with_cache(q, k, v, _state["blocks"][i])
        x = x + out.reshape(C) @ block["W_o"]
        x = x + mlp(layer_norm(x, block["ln2_g"], block["ln2_b"]), block["W1"], block["b1"], block["W2"], block["b2"])
    _state["position"] = position + 1
    logits = layer_norm(x, p["lnf_g"], p["lnf_b"]) @ W_E.T
    return logits, position + 1

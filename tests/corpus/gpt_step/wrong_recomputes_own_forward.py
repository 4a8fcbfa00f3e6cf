# expect: failed
# message: recomputed from the ids
# No cache of keys and values: the cache is the list of ids, and each call runs its own whole-sequence
# forward pass on all of them (without calling gpt_logits), keeping the last row.
import numpy as np


def gpt_step(token_id, p, n_heads, cache):
    ids = (cache or []) + [int(token_id)]
    T, C = len(ids), p["W_E"].shape[1]
    D = C // n_heads
    x = p["W_E"][ids] + sinusoidal_pe(T, C)
    mask = np.triu(np.full((T, T), -np.inf), 1)
    for b in p["blocks"]:
        h = layer_norm(x, b["ln1_g"], b["ln1_b"])
        q, k, v = ((h @ b[n]).reshape(T, n_heads, D).transpose(1, 0, 2) for n in ("W_q", "W_k", "W_v"))
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(D) + mask
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        weights /= weights.sum(-1, keepdims=True)
        x = x + (weights @ v).transpose(1, 0, 2).reshape(T, C) @ b["W_o"]
        x = x + mlp(layer_norm(x, b["ln2_g"], b["ln2_b"]), b["W1"], b["b1"], b["W2"], b["b2"])
    return (layer_norm(x, p["lnf_g"], p["lnf_b"]) @ p["W_E"].T)[-1], ids

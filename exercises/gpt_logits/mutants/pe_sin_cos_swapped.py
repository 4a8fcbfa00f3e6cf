# Positional encoding with cos in the even columns and sin in the odd ones.
import numpy as np


def layer_norm(x, g, b, eps=1e-5):
    m = x.mean(-1, keepdims=True)
    return g * (x - m) / np.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + eps) + b


def gpt_logits(ids, p, n_heads):
    W_E = p["W_E"]
    T, C = len(ids), W_E.shape[1]
    x = np.array([W_E[i] for i in ids], dtype=float)
    for t in range(T):
        for i in range(C // 2):
            x[t, 2 * i] += np.cos(t / 10000 ** (2 * i / C))
            x[t, 2 * i + 1] += np.sin(t / 10000 ** (2 * i / C))
    D = C // n_heads
    for b in p["blocks"]:
        h = layer_norm(x, b["ln1_g"], b["ln1_b"])
        q, k, v = h @ b["W_q"], h @ b["W_k"], h @ b["W_v"]
        out = np.zeros_like(x)
        for hd in range(n_heads):
            s = slice(hd * D, (hd + 1) * D)
            sc = q[:, s] @ k[:, s].T / np.sqrt(D)
            sc = np.where(np.tril(np.ones((T, T))) > 0, sc, -np.inf)
            w = np.exp(sc - sc.max(1, keepdims=True))
            out[:, s] = (w / w.sum(1, keepdims=True)) @ v[:, s]
        x = x + out @ b["W_o"]
        u = layer_norm(x, b["ln2_g"], b["ln2_b"]) @ b["W1"] + b["b1"]
        x = x + 0.5 * u * (1 + np.tanh(np.sqrt(2 / np.pi) * (u + 0.044715 * u ** 3))) @ b["W2"] + b["b2"]
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ W_E.T

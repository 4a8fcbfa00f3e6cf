# Does not chain the blocks: each block reads the embeddings, so only the last one counts.
import numpy as np


def sinusoidal_pe(T, C):
    angles = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    pe = np.zeros((T, C))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps) + beta


def transformer_block(x, p, n_heads):
    T, C = x.shape
    D = C // n_heads
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    q = (h @ p["W_q"]).reshape(T, n_heads, D).transpose(1, 0, 2)
    k = (h @ p["W_k"]).reshape(T, n_heads, D).transpose(1, 0, 2)
    v = (h @ p["W_v"]).reshape(T, n_heads, D).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(D)
    scores[:, np.triu(np.ones((T, T), dtype=bool), 1)] = -np.inf
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    x = x + (w @ v).transpose(1, 0, 2).reshape(T, C) @ p["W_o"]
    u = layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
    u = 0.5 * u * (1 + np.tanh(np.sqrt(2 / np.pi) * (u + 0.044715 * u ** 3)))
    return x + u @ p["W2"] + p["b2"]


def gpt_logits(ids, p, n_heads):
    ids = np.asarray(ids)
    x = p["W_E"][ids] + sinusoidal_pe(len(ids), p["W_E"].shape[1])
    h = x
    for block in p["blocks"]:
        h = transformer_block(x, block, n_heads)
    return layer_norm(h, p["lnf_g"], p["lnf_b"]) @ p["W_E"].T

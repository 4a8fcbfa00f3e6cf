# The residual adds the normalised x: h = layer_norm(x); x = h + sublayer(h).
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    D = C // n_heads
    q, k, v = x @ W_q, x @ W_k, x @ W_v
    mask = np.tril(np.ones((T, T), dtype=bool))
    heads = []
    for h in range(n_heads):
        s = slice(h * D, (h + 1) * D)
        scores = q[:, s] @ k[:, s].T / np.sqrt(D)
        scores = np.where(mask, scores, -np.inf)
        w = np.exp(scores - scores.max(axis=-1, keepdims=True))
        w = w / w.sum(axis=-1, keepdims=True)
        heads.append(w @ v[:, s])
    return np.concatenate(heads, axis=-1) @ W_o


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def mlp(x, W1, b1, W2, b2):
    return gelu(x @ W1 + b1) @ W2 + b2


def transformer_block(x, p, n_heads):
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = h + multi_head_attention(h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = h + mlp(h, p["W1"], p["b1"], p["W2"], p["b2"])
    return x

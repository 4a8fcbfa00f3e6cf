# Attention without the causal mask: every query attends to every key, future ones included.
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = np.mean(x, axis=1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(np.mean((x - mu) ** 2, axis=1, keepdims=True) + eps) + beta


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    T, C = x.shape
    D = C // n_heads
    q = (x @ W_q).reshape(T, n_heads, D).transpose(1, 0, 2)
    k = (x @ W_k).reshape(T, n_heads, D).transpose(1, 0, 2)
    v = (x @ W_v).reshape(T, n_heads, D).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(D)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(T, C) @ W_o


def transformer_block(x, p, n_heads):
    x = x + multi_head_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
    h = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    return x + h @ p["W2"] + p["b2"]

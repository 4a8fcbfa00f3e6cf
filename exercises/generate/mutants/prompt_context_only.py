# Runs the model on the prompt at every step: the context never grows.
import numpy as np


# ---- earlier steps, pasted so the file is self-contained ----------------------------------------

def softmax(x, axis=-1):
    """Step 5: numerically stable softmax."""
    exps = np.exp(x - x.max(axis=axis, keepdims=True))
    return exps / exps.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    """Step 6: normalise the last axis (biased variance, eps inside the square root)."""
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def causal_attention(q, k, v):
    """Step 8: query i attends to keys j <= i only."""
    T, d = q.shape[-2], q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    scores = np.where(np.triu(np.ones((T, T), dtype=bool), k=1), -np.inf, scores)
    return softmax(scores, axis=-1) @ v


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    """Step 9: causal multi-head self-attention, heads on contiguous column blocks."""
    D = x.shape[-1] // n_heads
    q, k, v = x @ W_q, x @ W_k, x @ W_v
    heads = [causal_attention(q[:, h * D:(h + 1) * D], k[:, h * D:(h + 1) * D], v[:, h * D:(h + 1) * D])
             for h in range(n_heads)]
    return np.concatenate(heads, axis=-1) @ W_o


def gelu(x):
    """Step 10: GPT-2's tanh approximation."""
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def mlp(x, W1, b1, W2, b2):
    """Step 11: position-wise feed-forward network."""
    return gelu(x @ W1 + b1) @ W2 + b2


def transformer_block(x, p, n_heads):
    """Step 12: pre-LayerNorm block."""
    x = x + multi_head_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]),
                                 p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads)
    return x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])


def sinusoidal_pe(T, C):
    """Step 2: sin in the even columns, cos in the odd columns."""
    positions = np.arange(T, dtype=np.float64)[:, None]
    frequencies = 1.0 / 10000.0 ** (np.arange(0, C, 2, dtype=np.float64) / C)
    pe = np.empty((T, C))
    pe[:, 0::2] = np.sin(positions * frequencies)
    pe[:, 1::2] = np.cos(positions * frequencies)
    return pe


def gpt_logits(ids, p, n_heads):
    """Step 13: logits (T, V) for the token ids (T,)."""
    ids = np.asarray(ids)
    W_E = p["W_E"]
    x = W_E[ids] + sinusoidal_pe(ids.shape[0], W_E.shape[1])
    for block in p["blocks"]:
        x = transformer_block(x, block, n_heads)
    return layer_norm(x, p["lnf_g"], p["lnf_b"]) @ W_E.T


def sample_token(logits, rng, temperature=1.0, top_k=None):
    """Step 16: one draw from softmax(top-k filtered logits / temperature)."""
    logits = np.array(logits, dtype=np.float64)
    if top_k is not None:
        logits[logits < np.sort(logits)[-top_k]] = -np.inf
    p = softmax(logits / temperature)
    return int(rng.choice(len(p), p=p))


# ---- this step ---------------------------------------------------------------------------------------

def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    prompt = [int(i) for i in ids]
    out = list(prompt)
    for _ in range(n_new):
        logits = gpt_logits(prompt, p, n_heads)
        out.append(sample_token(logits[-1], rng, temperature, top_k))
    return out

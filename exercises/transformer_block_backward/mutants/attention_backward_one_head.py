# Runs the attention backward on the whole (T, C) arrays as one head: every head's keys mixed, scaled
# expect: looks like the attention backward ran on the whole
# by 1/sqrt(C) instead of 1/sqrt(D).
import numpy as np


def transformer_block_backward(x, p, n_heads, dout):
    """Gradients (dx, grads) of out = transformer_block(x, p, n_heads), given dL/dout = dout (T, C)."""
    x, dout = np.asarray(x), np.asarray(dout)
    T, C = x.shape
    D = C // n_heads

    def split(a):                                   # (T, C) -> (n_heads, T, D), as in step 11
        return a.reshape(T, n_heads, D).transpose(1, 0, 2)

    def merge(a):                                   # (n_heads, T, D) -> (T, C)
        return a.transpose(1, 0, 2).reshape(T, C)

    # The forward pass again, keeping what the backward pass needs.
    h1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    q, k, v = split(h1 @ p["W_q"]), split(h1 @ p["W_k"]), split(h1 @ p["W_v"])
    heads = merge(causal_attention(q, k, v))
    x1 = x + heads @ p["W_o"]
    h2 = layer_norm(x1, p["ln2_g"], p["ln2_b"])
    z = h2 @ p["W1"] + p["b1"]
    g = gelu(z)

    grads = {}
    # out = x1 + mlp(h2): the residual passes dout to x1 unchanged, the MLP adds its own part.
    dg, grads["W2"], grads["b2"] = linear_backward(g, p["W2"], dout)
    dz = gelu_backward(z, dg)
    dh2, grads["W1"], grads["b1"] = linear_backward(h2, p["W1"], dz)
    dx1_ln, grads["ln2_g"], grads["ln2_b"] = layer_norm_backward(x1, p["ln2_g"], dh2)
    dx1 = dout + dx1_ln
    # x1 = x + attention(h1): the same again.
    dheads, grads["W_o"], _ = linear_backward(heads, p["W_o"], dx1)
    dq, dk, dv = (split(d) for d in causal_attention_backward(merge(q), merge(k), merge(v), dheads))
    dh1 = np.zeros_like(h1)
    for name, d in (("W_q", dq), ("W_k", dk), ("W_v", dv)):
        dh1_part, grads[name], _ = linear_backward(h1, p[name], merge(d))
        dh1 = dh1 + dh1_part                          # h1 feeds q, k and v: their gradients add up
    dx_ln, grads["ln1_g"], grads["ln1_b"] = layer_norm_backward(x, p["ln1_g"], dh1)
    return dx1 + dx_ln, grads
